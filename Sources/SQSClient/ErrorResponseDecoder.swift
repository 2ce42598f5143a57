import Foundation
import StrictJSON

/// Turns a non-2xx response into an `SQSError`: JSON (`__type`, `message`), the
/// `x-amzn-query-error` header (`Code;Sender`), well-formed XML (`<Code>`, `<Message>`, read by `QueryXML`),
/// or anything else (an HTML page, malformed XML) summarized as text.
enum ErrorResponseDecoder {
    static func decode(_ response: HTTPResponse) -> SQSError {
        var codes: [String] = []
        var message = ""
        var typeCode: String?
        if let object = JSONReader.object(from: response.body) {
            if let type = (object["__type"] ?? object["code"] ?? object["Code"]) as? String {
                typeCode = shapeName(type)
            }
            message = (object["message"] ?? object["Message"]) as? String ?? ""
        } else if let xml = try? QueryXML(response.text), let xmlCode = xml.text("Code") {
            typeCode = xmlCode
            message = xml.text("Message") ?? ""
        }
        if let typeCode { codes.append(typeCode) }
        if let header = response.headers.value(for: "x-amzn-query-error") {
            let queryCode = String(header.split(separator: ";", maxSplits: 1).first ?? "")
            if !queryCode.isEmpty { codes.append(queryCode) }
        }
        if message.isEmpty, codes.isEmpty {
            message = summarize(response.text)
        }
        let code = codes.first ?? "HTTP \(response.status)"
        return SQSError(
            kind: SQSError.classify(codes: codes, status: response.status),
            code: code, message: message, httpStatus: response.status)
    }

    /// `com.amazonaws.sqs#QueueDoesNotExist:http://...` → `QueueDoesNotExist`.
    static func shapeName(_ type: String) -> String {
        let beforeColon = type.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(beforeColon.split(separator: "#", omittingEmptySubsequences: false).last ?? "")
    }

    /// The start of a non-JSON, non-XML body (an HTML error page): tags stripped, short.
    static func summarize(_ text: String) -> String {
        var stripped = ""
        var inTag = false
        for character in text {
            if character == "<" { inTag = true; stripped.append(" "); continue }
            if character == ">" { inTag = false; continue }
            if !inTag { stripped.append(character) }
        }
        return String(stripped.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(200))
    }
}

extension SQSError {
    /// Decodes a non-2xx response (JSON, `x-amzn-query-error`, XML or HTML) into an error.
    public static func decode(_ response: HTTPResponse) -> SQSError {
        ErrorResponseDecoder.decode(response)
    }
}
