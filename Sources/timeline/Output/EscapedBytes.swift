import TimelineCore

/// Shows arbitrary bytes (a rejected message body, a reason) on one line: printable text as is, backslash
/// doubled, C0 controls and DEL as `\xNN`, other characters unsafe for a terminal (`TerminalSafety`) as
/// `\u{…}`, bytes that are not valid UTF-8 as `\xNN`.
enum EscapedBytes {
    static func escape(_ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            let (scalar, length) = decodeScalar(bytes, at: index)
            if let scalar {
                out += escape(scalar)
                index += length
            } else {
                out += hex(bytes[index])
                index += 1
            }
        }
        return out
    }

    static func escape(_ text: String) -> String { escape(Array(text.utf8)) }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x5C: return "\\\\"
        case 0x00...0x1F, 0x7F: return hex(UInt8(scalar.value))
        default:
            guard TerminalSafety.isUnsafe(scalar) else { return String(scalar) }
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The scalar starting at `index` and its length in bytes, or nil when the bytes there are not UTF-8.
    private static func decodeScalar(_ bytes: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 1) }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return (nil, 1)
    }
}
