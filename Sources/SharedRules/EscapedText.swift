/// Showing untrusted text or bytes on one line with nothing hidden (a rejected body, an answer, a path).
///
/// Backslash is doubled; LF, CR and tab become `\n`, `\r`, `\t`; every other character unsafe for a
/// terminal (`TerminalSafety.isUnsafe`) becomes `\uXXXX`; a byte that is not part of valid UTF-8 becomes
/// `\xNN`. A leading combining mark gets a space base. `agent-tool/terminal_text.py` mirrors the text form
/// (shared cases: `schema/examples/escaped-text.json`).
extension DisplayText {
    /// `s` with every character that is not plainly printable shown as an escape.
    public static func escaped(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars { appendEscaped(scalar, to: &out) }
        return repairOrphanMarks(out)
    }

    /// `bytes` shown as `escaped` shows text, with each byte that is not part of valid UTF-8 as `\xNN`.
    public static func escaped(bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index) {
                appendEscaped(scalar, to: &out)
                index += length
            } else {
                out += "\\x" + String(TerminalSafety.hex4(UInt32(bytes[index])).suffix(2))
                index += 1
            }
        }
        return repairOrphanMarks(out)
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, to out: inout String) {
        switch scalar.value {
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        default:
            if TerminalSafety.isUnsafe(scalar) {
                out += "\\u" + TerminalSafety.hex4(scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }

    /// The well-formed UTF-8 scalar starting at `index` and its length in bytes, or nil when there is none.
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<(index + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
        return (scalar, length)
    }
}
