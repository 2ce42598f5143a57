/// The UI's single door to display-width and sanitizing rules (TimelineCore's DisplayText).
enum TextWidth {
    /// Columns of one grapheme.
    static func of(_ c: Character) -> Int { DisplayText.width(c) }

    /// Columns of a string.
    static func of(_ s: String) -> Int { s.reduce(0) { $0 + DisplayText.width($1) } }

    /// Event text made safe for a one-line cell.
    static func safe(_ s: String) -> String { DisplayText.sanitize(s) }

    /// Cuts `s` to at most `columns` columns, ending with `…` when something was cut.
    static func truncate(_ s: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(s) <= columns { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = of(ch)
            if used + w > columns - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// Pads with spaces on the right to exactly `columns` (truncating first when longer).
    static func pad(_ s: String, to columns: Int) -> String {
        let t = truncate(s, to: columns)
        return t + String(repeating: " ", count: max(0, columns - of(t)))
    }

    /// Right-aligns in `columns`.
    static func padLeft(_ s: String, to columns: Int) -> String {
        let t = truncate(s, to: columns)
        return String(repeating: " ", count: max(0, columns - of(t))) + t
    }

    /// Wraps sanitized text into lines of at most `columns` columns, breaking at spaces when possible.
    static func wrap(_ s: String, to columns: Int) -> [String] {
        guard columns > 0 else { return [] }
        var lines: [String] = []
        for paragraph in s.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var used = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var w = String(word)
                var ww = of(w)
                let gap = line.isEmpty ? 0 : 1
                if used + gap + ww <= columns {
                    if gap == 1 { line += " " }
                    line += w
                    used += gap + ww
                    continue
                }
                if !line.isEmpty { lines.append(line); line = ""; used = 0 }
                while ww > columns {
                    var head = ""
                    var hw = 0
                    var rest = w[...]
                    while let c = rest.first, hw + of(c) <= columns { head.append(c); hw += of(c); rest = rest.dropFirst() }
                    if head.isEmpty, let c = rest.first { head.append(c); rest = rest.dropFirst() }
                    lines.append(head)
                    w = String(rest)
                    ww = of(w)
                }
                line = w
                used = ww
            }
            lines.append(line)
        }
        return lines
    }
}
