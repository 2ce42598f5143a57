/// `docs/keys.md`: the help overlay's sections as Markdown tables, each binding with its full explanation.
extension KeyBindings {
    /// The command that writes `docs/keys.md`.
    public static let markdownCommand = "timeline help-keys --markdown > docs/keys.md"

    /// The whole keys doc, in the overlay's order (a test compares `docs/keys.md` with it).
    public static func markdown() -> String {
        var lines = [
            "# Keys",
            "",
            "<!-- Generated from Sources/TimelineUI/KeyBindings.swift by `\(markdownCommand)`: do not edit. -->",
            "",
            "Every key of `timeline tui`, as its help overlay (`?` or F1) lists them.",
            "See [the viewer](tui.md) for what the screen shows and [queries](queries.md) for the search syntax.",
        ]
        for section in columns.flatMap({ $0 }) {
            let isGlyphs = section.title == glyphs.title
            lines += ["", "## \(section.title)", "", isGlyphs ? "| glyph | means |" : "| keys | what they do |", "| --- | --- |"]
            for binding in section.keys {
                let keys = binding.keys.split(separator: " ").map { code(String($0)) }.joined(separator: " ")
                lines.append("| \(keys) | \(cell(binding.detail ?? binding.summary)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A key as inline code (a backtick key is fenced with two backticks).
    private static func code(_ key: String) -> String {
        key.contains("`") ? "`` \(key) ``" : "`\(key)`"
    }

    /// Text for a table cell: a `|` would end the cell.
    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
