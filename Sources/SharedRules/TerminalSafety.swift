/// The one rule for characters that must not reach a terminal as themselves: every escaper (`DisplayText`,
/// `--json` lines, rejected-message bodies) shows these as escapes, and `DisplayText.sanitize` drops them.
public enum TerminalSafety {
    /// True for C0 controls, DEL, C1 controls, line and paragraph separators, bidi overrides and isolates
    /// and other invisible format characters (`DisplayText.isRemoved`), and unassigned code points or
    /// noncharacters. Tab and newline are C0 controls too: callers that keep them check them first.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value >= 0x20, value < 0x7F { return false }  // printable ASCII: the common case
        return isControl(scalar) || DisplayText.isLineBreak(value) || DisplayText.isRemoved(scalar)
            || DisplayText.isUnassignedOrNoncharacter(scalar)
    }

    /// C0 controls, DEL and C1 controls: the part of `isUnsafe` that rejection reasons escape too.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Upper-case hex, zero-padded to at least four digits: the digits of an escape (`\u001B`, `U+202E`).
    public static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
