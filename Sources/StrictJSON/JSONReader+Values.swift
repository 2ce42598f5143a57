extension JSONReader {
    /// The top-level object of `bytes` as `[String: Any]` (members `String`, `Int`, `Double`, `Bool`,
    /// `[Any]`, `[String: Any]`; JSON `null` members and elements are left out, a repeated key keeps its
    /// last value), or nil when the bytes are not one well-formed JSON object in UTF-8. Same grammar as
    /// `readDocument()`; this is the fast path for SQS answers.
    public static func object(from bytes: [UInt8]) -> [String: Any]? {
        bytes.withUnsafeBufferPointer { buffer -> [String: Any]? in
            var reader = JSONReader(buffer, inputIsValidUTF8: false)
            do throws(JSONSyntaxError) {
                reader.skipWhitespace()
                guard try reader.peek() == UInt8(ascii: "{") else { return nil }
                let object = try reader.readObjectValue(depth: 1)
                reader.skipWhitespace()
                return reader.index == buffer.count ? object : nil
            } catch {
                return nil
            }
        }
    }

    /// Any value as a Foundation-style value; nil for JSON `null`.
    private mutating func readAnyValue(depth: Int) throws(JSONSyntaxError) -> Any? {
        skipWhitespace()
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try checkNesting(depth: depth)
            return byte == UInt8(ascii: "{") ? try readObjectValue(depth: depth + 1) : try readArrayValue(depth: depth + 1)
        case UInt8(ascii: "\""):
            return try readString(decode: true)!
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try readNumber()
            if let integer = Int(text) { return integer }
            return Double(text)
        default:
            switch try readValue(depth: depth, decode: false, insideField: nil) {
            case .bool(let flag): return flag
            default: return nil  // null (anything else was handled above)
            }
        }
    }

    /// An object starting at its `{`.
    private mutating func readObjectValue(depth: Int) throws(JSONSyntaxError) -> [String: Any] {
        var result: [String: Any] = [:]
        try readObject { reader, key throws(JSONSyntaxError) in
            if let member = try reader.readAnyValue(depth: depth) { result[key] = member }
        }
        return result
    }

    /// An array starting at its `[`.
    private mutating func readArrayValue(depth: Int) throws(JSONSyntaxError) -> [Any] {
        var result: [Any] = []
        try readArray { reader throws(JSONSyntaxError) in
            if let element = try reader.readAnyValue(depth: depth) { result.append(element) }
        }
        return result
    }
}
