import StrictJSON

/// One hook payload (a JSON object) with typed, forgiving accessors: agents add and rename fields between
/// versions, so a missing or mistyped field reads as absent rather than failing the hook.
// @unchecked: `fields` holds JSONReader's immutable values (strings, numbers, arrays, objects) typed as Any.
public struct HookInput: @unchecked Sendable {
    /// The object's members (`JSONReader.object`: strings, numbers, booleans, arrays, objects).
    public let fields: [String: Any]

    public init(fields: [String: Any]) {
        self.fields = fields
    }

    /// The payload in `bytes`, nil when it is not one JSON object.
    public static func parse(_ bytes: [UInt8]) -> HookInput? {
        JSONReader.object(from: bytes).map(HookInput.init(fields:))
    }

    /// A non-empty string member (numbers are written as text).
    public func string(_ key: String) -> String? {
        switch fields[key] {
        case let text as String: return text.isEmpty ? nil : text
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        default: return nil
        }
    }

    /// The first present of several member names (agents spell the same thing differently).
    public func string(_ keys: [String]) -> String? {
        keys.lazy.compactMap { string($0) }.first
    }

    public func object(_ key: String) -> HookInput? {
        (fields[key] as? [String: Any]).map(HookInput.init(fields:))
    }

    public func array(_ key: String) -> [Any]? {
        fields[key] as? [Any]
    }

    public func bool(_ key: String) -> Bool? {
        fields[key] as? Bool
    }

    /// A member as compact JSON text (for bodies that show a tool's input or answer).
    public func json(_ key: String) -> String? {
        guard let value = fields[key] else { return nil }
        if let text = value as? String { return text }
        return JSONWriter.encode(value).map { String(decoding: $0, as: UTF8.self) }
    }
}
