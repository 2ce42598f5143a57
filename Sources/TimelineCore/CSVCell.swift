import SharedRules

/// One CSV cell (RFC 4180) that a spreadsheet will not run and a terminal will not obey.
///
/// Formula injection, as OWASP recommends: a cell beginning with `=`, `+`, `-`, `@`, tab or carriage
/// return (or their full-width forms) is prefixed with `'` and quoted, so a spreadsheet shows it as text.
/// Characters unsafe for a terminal (`TerminalSafety`: ESC and other controls, bidi overrides) are written as
/// `\uXXXX`; line feeds and tabs inside a cell are kept. JSON lines are the exact export; CSV is for reading.
public enum CSVCell {
    /// First characters a spreadsheet reads as the start of a formula.
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}"]

    /// `value` as a cell: neutralized, escaped, and quoted when it holds a comma, quote or line break.
    public static func field(_ value: String) -> String {
        let formula = value.unicodeScalars.first.map(formulaStarts.contains) ?? false
        var text = formula ? "'" : ""
        for scalar in value.unicodeScalars {
            if scalar == "\n" || scalar == "\t" || !TerminalSafety.isUnsafe(scalar) {
                text.unicodeScalars.append(scalar)
            } else {
                text += "\\u" + TerminalSafety.hex4(scalar.value)
            }
        }
        guard formula || text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
