/// Stage 1 of SigV4: the canonical request, with the rules AWS uses for every service except S3
/// (paths normalised, each segment URI-encoded once more).
public enum CanonicalRequest {
    /// The canonical request text and the signed-headers list it ends with.
    public struct Result: Sendable, Equatable {
        public var text: String
        public var signedHeaders: String
    }

    /// Builds the canonical request for `request`.
    public static func build(_ request: SigningRequest) -> Result {
        let headers = canonicalHeaders(request.headers)
        let signed = headers.map(\.name).joined(separator: ";")
        let headerBlock = headers.map { "\($0.name):\($0.value)\n" }.joined()
        let payload = request.headers.value(for: "x-amz-content-sha256") ?? payloadHash(request.body)
        let text = [
            request.method.uppercased(),
            canonicalURI(request.path),
            canonicalQuery(request.query),
            headerBlock,
            signed,
            payload,
        ].joined(separator: "\n")
        return Result(text: text, signedHeaders: signed)
    }

    /// Removes `.`/`..` segments and empty segments, then URI-encodes each segment.
    /// A trailing `/` is kept when the input had one and the result is not just `/`.
    public static func canonicalURI(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        if segments.isEmpty { return "/" }
        let encoded = "/" + segments.map { URIEncoding.encode(String($0)) }.joined(separator: "/")
        return path.hasSuffix("/") ? encoded + "/" : encoded
    }

    /// Splits the query into pairs, decodes then re-encodes each side, sorts by key then value.
    public static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        var pairs: [(String, String)] = []
        for component in query.split(separator: "&", omittingEmptySubsequences: true) {
            let key: Substring
            let value: Substring
            if let equals = component.firstIndex(of: "=") {
                key = component[..<equals]
                value = component[component.index(after: equals)...]
            } else {
                key = component
                value = ""
            }
            pairs.append((URIEncoding.encode(URIEncoding.decode(String(key))),
                          URIEncoding.encode(URIEncoding.decode(String(value)))))
        }
        pairs.sort { lhs, rhs in
            lhs.0 != rhs.0 ? lhs.0.utf8.lexicographicallyPrecedes(rhs.0.utf8)
                           : lhs.1.utf8.lexicographicallyPrecedes(rhs.1.utf8)
        }
        return pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// Lower-cased names, trimmed values with whitespace runs collapsed to one space,
    /// repeated headers joined with `,` in order of appearance, sorted by name.
    public static func canonicalHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for header in headers {
            let name = header.name.lowercased().trimmingASCIIWhitespace()
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(collapseWhitespace(header.value))
        }
        return order.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { HTTPHeader($0, values[$0]!.joined(separator: ",")) }
    }

    /// Hex SHA-256 of the body.
    public static func payloadHash(_ body: [UInt8]) -> String {
        Digest.hex(Digest.sha256(body))
    }

    static func collapseWhitespace(_ value: String) -> String {
        if isCollapsed(value) { return value }  // the usual case: nothing to trim or collapse
        return value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .joined(separator: " ")
    }

    /// True when `value` has no tab, newline or carriage return, no leading or trailing space and no two
    /// spaces in a row: `collapseWhitespace` would return it unchanged.
    static func isCollapsed(_ value: String) -> Bool {
        var previousSpace = true  // a leading space counts as a run
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): return false
            case UInt8(ascii: " "):
                if previousSpace { return false }
                previousSpace = true
            default: previousSpace = false
            }
        }
        return !previousSpace || value.isEmpty
    }
}

extension String {
    func trimmingASCIIWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
