/// Integers as one JSON array, the text a statement reads back with `json_each` (row ids, id keys): one
/// bound value instead of one statement or one placeholder per integer.
enum JSONIntegers {
    /// `[1,2,3]` (`[]` for none).
    static func array(_ values: [Int64]) -> String {
        var text: [UInt8] = [UInt8(ascii: "[")]
        text.reserveCapacity(values.count * 21 + 2)
        for (index, value) in values.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: String(value).utf8)
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }
}
