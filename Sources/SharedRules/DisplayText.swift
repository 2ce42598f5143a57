/// Turning untrusted event text into text that is safe to draw in a terminal (DESIGN.md invariant 7).
///
/// `sanitize` makes one row: every C0/C1 control character and DEL is removed, escape sequences are
/// removed whole (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`, DCS/SOS/PM/APC `ESC P|X|^|_ … ST`, the 8-bit
/// forms `0x9B`, `0x9D`, `0x90`, `0x98`, `0x9E`, `0x9F`, and two/three-byte escapes such as `ESC c` or
/// `ESC ( B`); bidi embeddings, overrides, isolates and marks (U+202A–202E, U+2066–2069, U+200E, U+200F,
/// U+061C) and other invisible format characters (soft hyphen, zero-width space, BOM, …) are removed —
/// ZWJ/ZWNJ and emoji tag characters are kept because emoji and scripts need them; unassigned code points
/// and noncharacters become U+FFFD; a tab becomes one space; every line break (LF, CR, CRLF, NEL, U+2028,
/// U+2029) becomes `⏎`; a combining mark with nothing to combine with gets a space as its base.
/// An unterminated OSC/DCS string swallows the rest of the text, as a terminal would.
///
/// `sanitizeLines` is the multi-line variant for the detail view: the same rules per line, tabs expanded to
/// the next multiple of `tabWidth` columns.
public enum DisplayText {
    /// What a line break looks like in a one-line row.
    public static let lineBreakMark: Character = "⏎"

    /// `s` as one safe row (see the type's documentation for the exact rules).
    public static func sanitize(_ s: String) -> String {
        if isPlainASCII(s) { return s }
        var out = String.UnicodeScalarView()
        for line in SafeLines(s) {
            if line.index > 0 { out.append("⏎") }
            appendLine(line.scalars, to: &out, tabWidth: nil)
        }
        return repairOrphanMarks(String(out))
    }

    /// `s` as safe lines for a multi-line view: split at line breaks, each line sanitized, tabs expanded.
    public static func sanitizeLines(_ s: String, tabWidth: Int = 4) -> [String] {
        if isPlainASCII(s) { return [s] }
        return SafeLines(s).map { line in
            var out = String.UnicodeScalarView()
            appendLine(line.scalars, to: &out, tabWidth: max(1, tabWidth))
            return repairOrphanMarks(String(out))
        }
    }

    /// Printable ASCII only (the common case, which needs no work).
    private static func isPlainASCII(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    // MARK: - Per-line filtering

    /// Appends the safe scalars of one line (no line breaks in it; escape sequences already removed).
    private static func appendLine(_ scalars: [Unicode.Scalar], to out: inout String.UnicodeScalarView, tabWidth: Int?) {
        var column = 0
        for scalar in scalars {
            if scalar == "\t" {
                let spaces = tabWidth.map { $0 - column % $0 } ?? 1
                out.append(contentsOf: repeatElement(" ", count: spaces))
                column += spaces
                continue
            }
            if TerminalSafety.isControl(scalar) || isRemoved(scalar) { continue }
            if isUnassignedOrNoncharacter(scalar) {
                out.append("\u{FFFD}")
                column += 1
                continue
            }
            out.append(scalar)
            if tabWidth != nil { column += DisplayText.width(of: scalar) }
        }
    }

    /// Invisible format characters that are dropped: bidi controls and other `Cf` characters, except ZWNJ,
    /// ZWJ and the tag characters used by emoji tag sequences (flags of England, Scotland, Wales).
    static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xE0020...0xE007F: return false
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return scalar.properties.generalCategory == .format
        }
    }

    static func isUnassignedOrNoncharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isNoncharacterCodePoint || scalar.properties.generalCategory == .unassigned
    }

    static func isLineBreak(_ value: UInt32) -> Bool {
        value == 0x0A || value == 0x0D || value == 0x85 || value == 0x2028 || value == 0x2029
    }

    /// Gives a leading combining mark (left alone by a removed character or at the start) a space base,
    /// so that it cannot combine with whatever the terminal drew before it.
    static func repairOrphanMarks(_ s: String) -> String {
        guard let first = s.unicodeScalars.first, isCombiningMark(first) else { return s }
        return " " + s
    }

    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }
}

/// Splits text into lines while removing escape sequences (which may span what look like line breaks).
struct SafeLines: Sequence {
    struct Line {
        var index: Int
        var scalars: [Unicode.Scalar]
    }

    private let scalars: [Unicode.Scalar]
    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    func makeIterator() -> IndexingIterator<[Line]> { split().makeIterator() }

    private func split() -> [Line] {
        var lines: [Line] = []
        var current: [Unicode.Scalar] = []
        var i = 0
        let n = scalars.count
        func finishLine() {
            lines.append(Line(index: lines.count, scalars: current))
            current = []
        }
        while i < n {
            let value = scalars[i].value
            switch value {
            case 0x1B:
                i = skipEscape(from: i)
            case 0x9B:
                i = skipControlSequence(from: i + 1)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                i = skipControlString(from: i + 1)
            case 0x0D:
                finishLine()
                i += (i + 1 < n && scalars[i + 1] == "\n") ? 2 : 1
            case 0x0A, 0x85, 0x2028, 0x2029:
                finishLine()
                i += 1
            default:
                current.append(scalars[i])
                i += 1
            }
        }
        finishLine()
        return lines
    }

    /// `i` is at ESC; returns the index after the whole escape sequence.
    private func skipEscape(from i: Int) -> Int {
        let n = scalars.count
        guard i + 1 < n else { return n }
        let next = scalars[i + 1].value
        switch next {
        case 0x5B: return skipControlSequence(from: i + 2)                       // ESC [  CSI
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return skipControlString(from: i + 2) // ESC ] P X ^ _
        case 0x20...0x2F:                                                         // nF: intermediates, final
            var j = i + 1
            while j < n, (0x20...0x2F).contains(scalars[j].value) { j += 1 }
            return (j < n && (0x30...0x7E).contains(scalars[j].value)) ? j + 1 : j
        case 0x30...0x7E: return i + 2                                            // Fp / Fe / Fs: ESC 7, ESC c, …
        default: return i + 1                                                     // lone ESC
        }
    }

    /// After a CSI introducer: parameters 0x30–0x3F, intermediates 0x20–0x2F, then a final 0x40–0x7E.
    /// A malformed sequence ends at the first other character (which is then processed normally).
    private func skipControlSequence(from start: Int) -> Int {
        var j = start
        let n = scalars.count
        while j < n, (0x30...0x3F).contains(scalars[j].value) { j += 1 }
        while j < n, (0x20...0x2F).contains(scalars[j].value) { j += 1 }
        if j < n, (0x40...0x7E).contains(scalars[j].value) { return j + 1 }
        return j
    }

    /// After an OSC/DCS/SOS/PM/APC introducer: everything up to and including BEL, ST (`ESC \`) or 8-bit ST
    /// (0x9C); an ESC not followed by `\` ends it and starts a new sequence. Unterminated: the rest of the text.
    private func skipControlString(from start: Int) -> Int {
        var j = start
        let n = scalars.count
        while j < n {
            switch scalars[j].value {
            case 0x07, 0x9C: return j + 1
            case 0x1B: return (j + 1 < n && scalars[j + 1] == "\\") ? j + 2 : j  // another ESC: a new sequence
            default: j += 1
            }
        }
        return n
    }
}
