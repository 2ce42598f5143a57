import SharedRules

/// Small text helpers for rejection reasons. `agent-tool/timeline_event.py` mirrors them exactly.
enum ReasonText {
    /// How many Unicode scalars of a value a reason quotes before cutting it with `…`.
    static let quotedScalarLimit = 40

    /// A value in double quotes, cut to `quotedScalarLimit` scalars (then `…` inside the quotes), with `\`, `"`
    /// and C0/DEL/C1 control characters escaped (`\\`, `\"`, `\u001B`).
    static func quote(_ value: String) -> String {
        var out = "\""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == quotedScalarLimit { out += "…"; break }
            count += 1
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0x22: out += "\\\""
            default:
                if TerminalSafety.isControl(scalar) { out += "\\u" + TerminalSafety.hex4(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    /// Source text cut to `quotedScalarLimit` characters (then `…`), for echoing numbers.
    static func cut(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > quotedScalarLimit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(quotedScalarLimit))) + "…"
    }

    /// `U+000A` style name of a scalar value (at least four upper-case hex digits).
    static func scalarName(_ value: UInt32) -> String { "U+" + TerminalSafety.hex4(value) }

    /// Two upper-case hex digits of a byte.
    static func hex2(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// True when `text` is empty or holds only Unicode White_Space characters.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isWhiteSpace)
    }

    /// The Unicode `White_Space` property, spelled out so the Python mirror uses the identical set.
    static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}
