extension JSONReader {
    /// Reads `bytes` as one JSON object, member by member, for answers whose shape is known: `member`
    /// gets each key with the cursor on its value, which it must read (`text()`, `members(_:)`,
    /// `elements(_:)` or `skip()`). Nothing is boxed or hashed on the way, unlike `object(from:)`. False
    /// when the bytes are not one well-formed JSON object in UTF-8 (the grammar of `readDocument()`).
    public static func walkObject(
        _ bytes: [UInt8], _ member: (inout JSONReader, String) throws(JSONSyntaxError) -> Void
    ) -> Bool {
        bytes.withUnsafeBufferPointer { buffer -> Bool in
            var reader = JSONReader(buffer, inputIsValidUTF8: false)
            do throws(JSONSyntaxError) {
                reader.skipWhitespace()
                guard try reader.peek() == UInt8(ascii: "{") else { return false }
                try reader.members(member)
                reader.skipWhitespace()
                return reader.index == buffer.count
            } catch {
                return false
            }
        }
    }

    /// The value at the cursor as text: a string decoded, a number as its source text; nil for any other
    /// value (read past).
    public mutating func text() throws(JSONSyntaxError) -> String? {
        switch try readValue(depth: walkDepth, decode: true, insideField: nil) {
        case .string(let text), .number(let text): return text
        default: return nil
        }
    }

    /// Calls `member` with each key of the object at the cursor (the cursor on the member's value, which
    /// `member` must read); any other value is read past.
    public mutating func members(_ member: (inout JSONReader, String) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "{") else { return try skip() }
        try checkNesting(depth: walkDepth)
        walkDepth += 1
        defer { walkDepth -= 1 }
        try readObject(member)
    }

    /// Calls `element` for each element of the array at the cursor (it must read the element); any other
    /// value is read past.
    public mutating func elements(_ element: (inout JSONReader) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "[") else { return try skip() }
        try checkNesting(depth: walkDepth)
        walkDepth += 1
        defer { walkDepth -= 1 }
        try readArray(element)
    }

    /// Reads past the value at the cursor.
    public mutating func skip() throws(JSONSyntaxError) {
        _ = try readValue(depth: walkDepth, decode: false, insideField: nil)
    }
}
