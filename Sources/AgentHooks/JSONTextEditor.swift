import Foundation
import StrictJSON
/// Edits JSON text in place: finds values by key path and inserts or removes members and array elements
/// without touching a byte outside the edit, keeping the file's indentation style. Settings files are
/// the user's: only what timeline adds or removes may change.
struct JSONTextEditor {
    /// A value in the text: where it is, and what it holds.
    final class Node {
        enum Kind {
            case object([(key: String, keyStart: Int, value: Node)])
            case array([Node])
            case string(String)
            case other
        }
        let start: Int
        let end: Int
        let kind: Kind
        init(start: Int, end: Int, kind: Kind) {
            (self.start, self.end, self.kind) = (start, end, kind)
        }

        func member(_ key: String) -> Node? {
            guard case .object(let members) = kind else { return nil }
            return members.last { $0.key == key }?.value
        }
        var elements: [Node] {
            if case .array(let items) = kind { return items }
            return []
        }
        var members: [(key: String, keyStart: Int, value: Node)] {
            if case .object(let items) = kind { return items }
            return []
        }
        var string: String? {
            if case .string(let text) = kind { return text }
            return nil
        }
    }

    private(set) var bytes: [UInt8]
    private(set) var root: Node

    init(_ text: String) throws(HookInstallError) {
        bytes = Array(text.utf8)
        root = try Self.parse(bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// One level of indentation as the file uses it (two spaces when it shows none).
    var unit: String {
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                var end = index + 1
                while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
                if end > index + 1, end < bytes.count, bytes[end] != UInt8(ascii: "\n") {
                    return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
                }
            }
            index += 1
        }
        return "  "
    }

    /// The indentation of the line `offset` is on.
    func indentation(at offset: Int) -> String {
        var start = offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Adds `"key": value` (value as JSON text written for `indent`) at the end of `object`.
    mutating func addMember(_ key: String, value: (String) -> String, to object: Node) throws(HookInstallError) {
        let quotedKey = JSONValue.quote(key)
        if let last = object.members.last {
            let indent = indentation(at: last.keyStart)
            try replace(last.value.end..<last.value.end, with: ",\n\(indent)\(quotedKey): \(value(indent))")
        } else {
            let outer = indentation(at: object.start)
            let indent = outer + unit
            try replace((object.start + 1)..<(object.end - 1), with: "\n\(indent)\(quotedKey): \(value(indent))\n\(outer)")
        }
    }

    /// Appends an element (JSON text written for `indent`) to `array`.
    mutating func append(_ value: (String) -> String, to array: Node) throws(HookInstallError) {
        if let last = array.elements.last {
            let indent = indentation(at: last.start)
            let sameLine = indentation(at: array.start).count == indent.count && lineStart(last.start) == lineStart(array.start)
            try replace(last.end..<last.end, with: sameLine ? ", \(value(indent))" : ",\n\(indent)\(value(indent))")
        } else {
            let outer = indentation(at: array.start)
            let indent = outer + unit
            try replace((array.start + 1)..<(array.end - 1), with: "\n\(indent)\(value(indent))\n\(outer)")
        }
    }

    /// Removes element `index` of `array` with its separating comma.
    mutating func removeElement(_ index: Int, of array: Node) throws(HookInstallError) {
        let items = array.elements
        if items.count == 1 {
            try replace((array.start + 1)..<(array.end - 1), with: "")
        } else if index == 0 {
            try replace(items[0].start..<items[1].start, with: "")
        } else {
            try replace(items[index - 1].end..<items[index].end, with: "")
        }
    }

    /// Removes member `index` of `object` with its separating comma.
    mutating func removeMember(_ index: Int, of object: Node) throws(HookInstallError) {
        let items = object.members
        if items.count == 1 {
            try replace((object.start + 1)..<(object.end - 1), with: "")
        } else if index == 0 {
            try replace(items[0].keyStart..<items[1].keyStart, with: "")
        } else {
            try replace(items[index - 1].value.end..<items[index].value.end, with: "")
        }
    }

    private func lineStart(_ offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return start
    }

    private mutating func replace(_ range: Range<Int>, with text: String) throws(HookInstallError) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
        root = try Self.parse(bytes)
    }

    // MARK: - Parsing with positions

    static func parse(_ bytes: [UInt8]) throws(HookInstallError) -> Node {
        var parser = Parser(bytes: bytes)
        parser.skip()
        let node = try parser.value(depth: 0)
        parser.skip()
        guard parser.index == bytes.count else { throw parser.failure("text after the JSON value") }
        guard case .object = node.kind else { throw HookInstallError("the file is not a JSON object") }
        return node
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        func failure(_ what: String) -> HookInstallError {
            HookInstallError("the file is not valid JSON (\(what) at byte \(index)); fix it or move it away first")
        }

        mutating func skip() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(HookInstallError) -> Node {
            guard depth < 128 else { throw failure("nesting too deep") }
            guard index < bytes.count else { throw failure("unexpected end") }
            let start = index
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, keyStart: Int, value: Node)] = []
                skip()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return Node(start: start, end: index, kind: .object([])) }
                while true {
                    skip()
                    let keyStart = index
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                    let key = try string()
                    skip()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                    index += 1
                    skip()
                    members.append((key, keyStart, try value(depth: depth + 1)))
                    skip()
                    guard index < bytes.count else { throw failure("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                    index += 1
                    return Node(start: start, end: index, kind: .object(members))
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [Node] = []
                skip()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return Node(start: start, end: index, kind: .array([])) }
                while true {
                    skip()
                    items.append(try value(depth: depth + 1))
                    skip()
                    guard index < bytes.count else { throw failure("unexpected end") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                    index += 1
                    return Node(start: start, end: index, kind: .array(items))
                }
            case UInt8(ascii: "\""):
                let text = try string()
                return Node(start: start, end: index, kind: .string(text))
            default:
                while index < bytes.count, !(",]} \t\r\n".utf8.contains(bytes[index])) { index += 1 }
                guard index > start else { throw failure("expected a value") }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                guard ["true", "false", "null"].contains(word) || Double(word) != nil else { throw failure("unknown word") }
                return Node(start: start, end: index, kind: .other)
            }
        }

        /// The string literal at `index`, decoded by the one JSON reader (`StrictJSON`).
        mutating func string() throws(HookInstallError) -> String {
            let start = index
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard index < bytes.count else { throw failure("unterminated string") }
            index += 1
            let literal = Array(bytes[start..<index])
            let decoded = literal.withUnsafeBufferPointer { buffer -> String? in
                var reader = JSONReader(buffer, inputIsValidUTF8: false)
                guard case .other(.string(let text))? = try? reader.readDocument() else { return nil }
                return text
            }
            guard let decoded else { throw failure("bad string") }
            return decoded
        }
    }
}

/// JSON values timeline writes into settings files, pretty-printed at a given indentation.
indirect enum JSONValue {
    case string(String)
    case number(Int)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A JSON string literal: the one writer's rule (`JSONWriter.quoted`).
    static func quote(_ text: String) -> String { JSONWriter.quoted(text) }

    /// The value as text whose first line continues the current one and whose nested lines are indented
    /// from `indent` by `unit`.
    func text(indent: String, unit: String) -> String {
        switch self {
        case .string(let text): return Self.quote(text)
        case .number(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .array(let items):
            if items.isEmpty { return "[]" }
            let inner = indent + unit
            return "[\n" + items.map { inner + $0.text(indent: inner, unit: unit) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let members):
            if members.isEmpty { return "{}" }
            let inner = indent + unit
            return "{\n" + members.map { "\(inner)\(Self.quote($0.0)): \($0.1.text(indent: inner, unit: unit))" }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }
}
