/// A JSON object written member by member, for requests on a hot path: the same bytes `JSONWriter.encode`
/// writes for the same `[String: Any]` when members are added in sorted key order, without that
/// dictionary's dynamic casts (which cost more than the rest of a drain's request encoding).
public struct JSONObjectWriter {
    private var out: [UInt8] = [UInt8(ascii: "{")]

    public init() {}

    /// `"key":"value"`.
    public mutating func add(_ key: String, _ value: String) {
        member(key)
        JSONWriter.appendQuoted(value, to: &out)
    }

    /// `"key":123`.
    public mutating func add(_ key: String, _ value: Int) {
        member(key)
        out.append(contentsOf: String(value).utf8)
    }

    /// `"key":["a","b"]`.
    public mutating func add(_ key: String, _ values: [String]) {
        member(key)
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendQuoted(value, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `"key":[{...},{...}]`.
    public mutating func add(_ key: String, _ objects: [JSONObjectWriter]) {
        member(key)
        out.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: object.bytes)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// The object's JSON text.
    public var bytes: [UInt8] { out + [UInt8(ascii: "}")] }

    private mutating func member(_ key: String) {
        if out.count > 1 { out.append(UInt8(ascii: ",")) }
        JSONWriter.appendQuoted(key, to: &out)
        out.append(UInt8(ascii: ":"))
    }
}
