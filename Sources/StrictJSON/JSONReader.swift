/// The one strict JSON reader (RFC 8259), for event payloads and SQS answers.
///
/// Why not `JSONSerialization`: it cannot tell `true` from `1`, silently keeps one of two duplicate keys,
/// accepts lone surrogates, its error texts are not stable enough to share with the Python validator, and
/// on Linux it cost about a tenth of `timeline drain`'s CPU time (more than signing requests).
/// The grammar, error texts and byte offsets mirror `agent-tool/timeline_event.py` exactly. Two ways out:
/// `readDocument()` decodes only the top-level object's keys and scalar values (nested values are validated
/// and skipped) for field validation; `object(from:)` builds Foundation-style values for SQS answers.
/// Every error message ends with ` at byte N` (a 0-based offset into the input).

/// A syntax error: message text plus the byte offset it refers to.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var message: String
    public var offset: Int
    public var text: String { "\(message) at byte \(offset)" }
}

/// A top-level member value, decoded just enough for field validation.
public enum JSONMember: Equatable, Sendable {
    case string(String)
    /// A number, kept as its source text.
    case number(String)
    case bool(Bool)
    case null
    case object
    case array

    /// The kind of value in the words reasons use ("a number", "an object", …).
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }
}

/// A whole JSON value, for the fields whose contents are validated (`actions`).
public indirect enum JSONValueTree {
    case string(String)
    /// A number, kept as its source text.
    case number(String)
    case bool(Bool)
    case null
    case object([(key: String, value: JSONValueTree)])
    case array([JSONValueTree])

    /// The kind of value in the words reasons use, as `JSONMember.kindDescription`.
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }
}

/// A duplicate key: the key, and the top-level field it sits inside (nil when it is a top-level field).
public struct DuplicateKey: Equatable, Sendable {
    public var key: String
    public var insideField: String?
}

/// The result of reading a whole document.
public enum JSONDocument {
    /// A top-level object: its members in document order (duplicates included).
    case object([(key: String, value: JSONMember)])
    /// Any other top-level value.
    case other(JSONMember)
}

public struct JSONReader {
    /// Containers nested deeper than this are refused (payloads are flat; this bounds recursion).
    public static let maxDepth = 128

    let bytes: UnsafeBufferPointer<UInt8>
    /// False: each decoded string is checked for UTF-8 (the whole input was not checked beforehand).
    private let inputIsValidUTF8: Bool
    var index = 0
    /// Containers around the cursor while an object is walked (`walkObject`).
    var walkDepth = 0
    /// The first duplicate key found in document order.
    public private(set) var firstDuplicate: DuplicateKey?

    /// A reader of `bytes`; `inputIsValidUTF8` says the caller has already validated them as UTF-8.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, inputIsValidUTF8: Bool = true) {
        self.bytes = bytes
        self.inputIsValidUTF8 = inputIsValidUTF8
    }

    /// Reads one complete JSON document.
    public mutating func readDocument() throws(JSONSyntaxError) -> JSONDocument {
        skipWhitespace()
        let result: JSONDocument
        if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
            result = .object(try readTopLevelObject())
        } else {
            result = .other(try readValue(depth: 0, decode: true, insideField: nil))
        }
        skipWhitespace()
        if index < bytes.count { throw JSONSyntaxError(message: "unexpected data after the JSON value", offset: index) }
        return result
    }

    // MARK: - Containers

    /// The object grammar, in one place: from its `{` to its `}`, calls `member` with each key, the
    /// cursor on the `:`-separated value, which `member` must read.
    @inline(__always)
    mutating func readObject(
        _ member: (inout JSONReader, String) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        index += 1  // '{'
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw expected("a key string") }
            let key = try readString(decode: true)!
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw expected("':'") }
            index += 1
            try member(&self, key)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            default: throw expected("',' or '}'")
            }
        }
    }

    /// The array grammar, in one place: from its `[` to its `]`, calls `element` to read each element.
    @inline(__always)
    mutating func readArray(_ element: (inout JSONReader) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        index += 1  // '['
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") { index += 1; return }
        while true {
            try element(&self)
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return
            default: throw expected("',' or ']'")
            }
        }
    }

    /// The nesting limit, in one place: `depth` containers around the one starting at the cursor.
    func checkNesting(depth: Int) throws(JSONSyntaxError) {
        guard depth + 1 <= Self.maxDepth else {
            throw JSONSyntaxError(message: "nesting deeper than \(Self.maxDepth) levels", offset: index)
        }
    }

    mutating func readTopLevelObject() throws(JSONSyntaxError) -> [(key: String, value: JSONMember)] {
        var members: [(key: String, value: JSONMember)] = []
        try readObject { reader, key throws(JSONSyntaxError) in
            if reader.firstDuplicate == nil, members.contains(where: { $0.key == key }) {
                reader.firstDuplicate = DuplicateKey(key: key, insideField: nil)
            }
            members.append((key, try reader.readValue(depth: 1, decode: true, insideField: key)))
        }
        return members
    }

    /// Reads a nested object, checking its keys for duplicates.
    mutating func skipObject(depth: Int, insideField: String?) throws(JSONSyntaxError) {
        var keys = Set<String>()
        try readObject { reader, key throws(JSONSyntaxError) in
            if !keys.insert(key).inserted, reader.firstDuplicate == nil {
                reader.firstDuplicate = DuplicateKey(key: key, insideField: insideField)
            }
            _ = try reader.readValue(depth: depth, decode: false, insideField: insideField)
        }
    }

    mutating func skipArray(depth: Int, insideField: String?) throws(JSONSyntaxError) {
        try readArray { reader throws(JSONSyntaxError) in
            _ = try reader.readValue(depth: depth, decode: false, insideField: insideField)
        }
    }

    // MARK: - Values

    /// Reads any value. `depth` is the number of containers around it.
    mutating func readValue(depth: Int, decode: Bool, insideField: String?) throws(JSONSyntaxError) -> JSONMember {
        skipWhitespace()
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try checkNesting(depth: depth)
            if byte == UInt8(ascii: "{") {
                try skipObject(depth: depth + 1, insideField: insideField)
                return .object
            }
            try skipArray(depth: depth + 1, insideField: insideField)
            return .array
        case UInt8(ascii: "\""):
            return .string(try readString(decode: decode) ?? "")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        case UInt8(ascii: "t"):
            try readLiteral(Self.trueLiteral)
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral(Self.falseLiteral)
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral(Self.nullLiteral)
            return .null
        default:
            throw expected("a value")
        }
    }

    mutating func readLiteral(_ word: [UInt8]) throws(JSONSyntaxError) {
        let matches = index + word.count <= bytes.count && word.indices.allSatisfy { bytes[index + $0] == word[$0] }
        guard matches else { throw JSONSyntaxError(message: "invalid literal", offset: index) }
        index += word.count
    }

    private static let trueLiteral = Array("true".utf8)
    private static let falseLiteral = Array("false".utf8)
    private static let nullLiteral = Array("null".utf8)

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as source text.
    mutating func readNumber() throws(JSONSyntaxError) -> String {
        let start = index
        let invalid = JSONSyntaxError(message: "invalid number", offset: start)
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        if isDigit(at: index), bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(at: index) {
            while isDigit(at: index) { index += 1 }
        } else {
            throw invalid
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(at: index) else { throw invalid }
            while isDigit(at: index) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(at: index) else { throw invalid }
            while isDigit(at: index) { index += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// Reads a string starting at its opening quote. Returns the decoded text when `decode` is true.
    mutating func readString(decode: Bool) throws(JSONSyntaxError) -> String? {
        let start = index + 1
        var cursor = start
        var hasEscape = false
        while true {
            guard cursor < bytes.count else { throw JSONSyntaxError(message: "unexpected end of input", offset: bytes.count) }
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                cursor = try validateEscape(at: cursor)
            } else if byte < 0x20 {
                throw JSONSyntaxError(message: "control character \(Self.scalarName(byte)) in string", offset: cursor)
            } else {
                cursor += 1
            }
        }
        index = cursor + 1
        guard decode else { return nil }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<cursor])
        if inputIsValidUTF8 { return hasEscape ? decodeEscapes(raw) : String(decoding: raw, as: UTF8.self) }
        let text = hasEscape ? decodeEscapes(raw, validating: true) : String(validating: raw, as: UTF8.self)
        guard let text else { throw JSONSyntaxError(message: "string is not valid UTF-8", offset: start - 1) }
        return text
    }

    /// Validates the escape at `at` (a backslash) and returns the offset after it.
    func validateEscape(at position: Int) throws(JSONSyntaxError) -> Int {
        guard position + 1 < bytes.count else { throw JSONSyntaxError(message: "unexpected end of input", offset: bytes.count) }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return position + 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: position + 2) else {
                throw JSONSyntaxError(message: "invalid \\u escape", offset: position)
            }
            let unpaired = JSONSyntaxError(message: "unpaired surrogate in \\u escape", offset: position)
            switch unit {
            case 0xD800...0xDBFF:
                guard position + 7 < bytes.count, bytes[position + 6] == UInt8(ascii: "\\"),
                      bytes[position + 7] == UInt8(ascii: "u"), let low = hex4(at: position + 8),
                      (0xDC00...0xDFFF).contains(low)
                else { throw unpaired }
                return position + 12
            case 0xDC00...0xDFFF:
                throw unpaired
            default:
                return position + 6
            }
        default:
            throw JSONSyntaxError(message: "invalid escape", offset: position)
        }
    }

    /// Decodes a string body with valid escapes (checked by `validateEscape`); nil when `validating`
    /// and the unescaped bytes are not UTF-8.
    func decodeEscapes(_ raw: UnsafeBufferPointer<UInt8>, validating: Bool = false) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func append(_ scalar: UInt32) {
            out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        }
        while i < raw.count {
            // Copy the run up to the next backslash in one go.
            var end = i
            while end < raw.count, raw[end] != UInt8(ascii: "\\") { end += 1 }
            if end > i { out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[i..<end])) }
            i = end
            guard i < raw.count else { break }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                let unit = Self.hex4(raw, at: i)!
                i += 4
                if (0xD800...0xDBFF).contains(unit) {
                    let low = Self.hex4(raw, at: i + 2)!
                    i += 6
                    append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    append(unit)
                }
            default: out.append(kind)  // '"', '\\', '/'
            }
        }
        return validating ? String(validating: out, as: UTF8.self) : String(decoding: out, as: UTF8.self)
    }

    // MARK: - Trees (for the few fields that are containers: `actions`)

    /// Reads one whole document as a tree. For documents `readDocument` has accepted (so nothing here
    /// reports duplicates; the depth limit still holds).
    public mutating func readTree(depth: Int = 0) throws(JSONSyntaxError) -> JSONValueTree {
        skipWhitespace()
        let byte = try peek()
        guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
            switch try readValue(depth: depth, decode: true, insideField: nil) {
            case .string(let s): return .string(s)
            case .number(let n): return .number(n)
            case .bool(let b): return .bool(b)
            default: return .null
            }
        }
        guard depth + 1 <= Self.maxDepth else {
            throw JSONSyntaxError(message: "nesting deeper than \(Self.maxDepth) levels", offset: index)
        }
        index += 1
        let isObject = byte == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var members: [(key: String, value: JSONValueTree)] = []
        var items: [JSONValueTree] = []
        skipWhitespace()
        if try peek() == close {
            index += 1
            return isObject ? .object([]) : .array([])
        }
        while true {
            skipWhitespace()
            if isObject {
                guard try peek() == UInt8(ascii: "\"") else { throw expected("a key string") }
                let key = try readString(decode: true)!
                skipWhitespace()
                guard try peek() == UInt8(ascii: ":") else { throw expected("':'") }
                index += 1
                members.append((key, try readTree(depth: depth + 1)))
            } else {
                items.append(try readTree(depth: depth + 1))
            }
            skipWhitespace()
            let next = try peek()
            if next == UInt8(ascii: ",") { index += 1; continue }
            guard next == close else { throw expected(isObject ? "',' or '}'" : "',' or ']'") }
            index += 1
            return isObject ? .object(members) : .array(items)
        }
    }

    // MARK: - Helpers

    /// `U+001B` for a control byte, as reasons name characters.
    private static func scalarName(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "U+00" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    func hex4(at position: Int) -> UInt32? { Self.hex4(bytes, at: position) }

    private static func hex4(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int) -> UInt32? {
        guard position + 4 <= buffer.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = buffer[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    func isDigit(at position: Int) -> Bool {
        position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The byte at the cursor; end of input is an error.
    func peek() throws(JSONSyntaxError) -> UInt8 {
        guard index < bytes.count else { throw JSONSyntaxError(message: "unexpected end of input", offset: bytes.count) }
        return bytes[index]
    }

    /// "expected X" at the cursor, or "unexpected end of input" when there is nothing left.
    func expected(_ what: String) -> JSONSyntaxError {
        guard index < bytes.count else { return JSONSyntaxError(message: "unexpected end of input", offset: bytes.count) }
        return JSONSyntaxError(message: "expected \(what)", offset: index)
    }
}
