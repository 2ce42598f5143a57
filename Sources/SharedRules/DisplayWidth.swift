/// Terminal column widths with wcwidth semantics, and cutting/padding text to a column count.
///
/// A scalar is 0 columns when it is a control character, a non-spacing or enclosing combining mark, a format
/// character (ZWJ, ZWNJ, variation selectors are marks or format characters) or a Hangul medial/final jamo;
/// 2 when it has Emoji_Presentation or is East Asian Wide/Fullwidth; 1 otherwise. A grapheme cluster
/// (`Character`) is as wide as its first non-zero-width scalar, and 2 when it is an emoji made so by VS16
/// (U+FE0F), an emoji ZWJ sequence or a regional-indicator flag pair.
extension DisplayText {
    /// How `pad` places text that is narrower than the column.
    public enum Alignment: Sendable {
        case left, right
    }

    /// Columns taken by one Unicode scalar: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value <= 0x9F { return 0 }
        if value < 0x300 { return value == 0xAD ? 0 : 1 }  // Latin-1 and Latin Extended: no marks, no wide
        switch value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF, 0x200B: return 0
        default: break
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if properties.isEmojiPresentation || EastAsianWideTable.contains(value) { return 2 }
        return 1
    }

    /// Columns taken by one grapheme cluster: 0, 1 or 2.
    public static func width(of character: Character) -> Int {
        if let ascii = character.asciiValue { return (0x20..<0x7F).contains(ascii) ? 1 : 0 }
        let scalars = character.unicodeScalars
        var columns = 0
        for scalar in scalars {
            columns = width(of: scalar)
            if columns > 0 { break }
        }
        guard columns == 1, let first = scalars.first, scalars.count > 1 else { return columns }
        let properties = first.properties
        if properties.isEmoji, scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D }) { return 2 }
        if isRegionalIndicator(first), scalars.dropFirst().contains(where: isRegionalIndicator) { return 2 }
        return columns
    }

    /// Columns taken by `s` (the sum over its grapheme clusters). Meant for sanitized text.
    public static func width(of s: String) -> Int {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return s.utf8.count }
        var total = 0
        for character in s { total += width(of: character) }
        return total
    }

    /// `s` cut to at most `width` columns. When it is cut and `ellipsis` is true the result ends in `…`.
    /// A wide character that would straddle the limit is left out and replaced by a space, so the result of
    /// cutting is exactly `width` columns. Never splits a grapheme cluster.
    public static func truncate(_ s: String, toWidth width: Int, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        if self.width(of: s) <= width { return s }
        let budget = ellipsis ? width - 1 : width
        var out = ""
        var used = 0
        for character in s {
            let w = self.width(of: character)
            if used + w > budget { break }
            out.append(character)
            used += w
        }
        out += String(repeating: " ", count: budget - used)
        return ellipsis ? out + "…" : out
    }

    /// `s` cut (see `truncate`) and padded with spaces to exactly `width` columns.
    public static func pad(_ s: String, toWidth width: Int, alignment: Alignment = .left, ellipsis: Bool = true) -> String {
        guard width > 0 else { return "" }
        let cut = truncate(s, toWidth: width, ellipsis: ellipsis)
        let fill = String(repeating: " ", count: max(0, width - self.width(of: cut)))
        return alignment == .left ? cut + fill : fill + cut
    }

    /// Untrusted text made into one safe cell of exactly `width` columns: `pad(sanitize(s), …)`.
    public static func fit(_ s: String, toWidth width: Int, alignment: Alignment = .left) -> String {
        pad(sanitize(s), toWidth: width, alignment: alignment)
    }

    /// One sanitized line wrapped to rows of at most `width` columns, breaking after spaces where possible
    /// and inside words only when a word is longer than a row. Spaces at a break are dropped.
    public static func wrap(_ line: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var rows: [String] = []
        var current: [(character: Character, width: Int)] = []
        var currentWidth = 0
        func emit(_ cells: ArraySlice<(character: Character, width: Int)>) {
            var row = String(cells.map(\.character))
            while row.last == " " { row.removeLast() }
            rows.append(row)
        }
        for character in line {
            var w = self.width(of: character)
            var character = character
            if w > width { character = " "; w = 1 }  // a wide character in a one-column view
            if currentWidth + w > width {
                if character == " " {
                    emit(current[...])
                    current = []
                    currentWidth = 0
                    continue
                }
                if let space = current.lastIndex(where: { $0.character == " " }), space > 0 {
                    emit(current[..<space])
                    current = Array(current[(space + 1)...])
                } else {
                    emit(current[...])
                    current = []
                }
                currentWidth = current.reduce(0) { $0 + $1.width }
            }
            current.append((character, w))
            currentWidth += w
        }
        if !current.isEmpty || rows.isEmpty { emit(current[...]) }
        return rows
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }
}
