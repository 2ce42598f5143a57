import Foundation
import SigV4

/// Parses the suite's `.req` files: a request line, `Name:value` headers with obs-fold
/// continuation lines, a blank line, the body.
enum RawRequestParser {
    struct ParseError: Error, CustomStringConvertible { var description: String }

    static func parse(_ text: String) throws -> SigningRequest {
        var lines = text.components(separatedBy: "\n")
        guard !lines.isEmpty else { throw ParseError(description: "empty request") }
        let requestLine = lines.removeFirst()
        // The target may hold a raw space (normalize-path/get-space): split at the first and last space.
        guard let firstSpace = requestLine.firstIndex(of: " "),
              let lastSpace = requestLine.lastIndex(of: " "), firstSpace < lastSpace
        else { throw ParseError(description: "bad request line \(requestLine)") }
        let method = String(requestLine[..<firstSpace])
        let target = String(requestLine[requestLine.index(after: firstSpace)..<lastSpace])
        let path: String
        let query: String
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = ""
        }
        var headers: [HTTPHeader] = []
        var bodyLines: [String] = []
        var inBody = false
        for line in lines {
            if inBody { bodyLines.append(line); continue }
            if line.isEmpty { inBody = true; continue }
            if line.first == " " || line.first == "\t" {
                guard !headers.isEmpty else { throw ParseError(description: "continuation before any header") }
                headers[headers.count - 1].value += " " + line
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { throw ParseError(description: "bad header \(line)") }
            headers.append(HTTPHeader(String(line[..<colon]), String(line[line.index(after: colon)...])))
        }
        let body = Array(bodyLines.joined(separator: "\n").utf8)
        return SigningRequest(method: method, path: path, query: query, headers: headers, body: body)
    }
}
