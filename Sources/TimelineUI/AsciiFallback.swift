/// Stand-ins for a terminal whose locale charset is not UTF-8 (`LANG=C`, `LC_ALL=C`, no locale): every
/// cell becomes ASCII of the same width, so nothing is written as a blank and status still reads without
/// colour. The one rule for what replaces what.
enum AsciiFallback {
    /// Single-column replacements for the glyphs the UI draws.
    static let glyphs: [Character: Character] = [
        "●": "*", "◐": ">", "✓": "+", "▲": "!", "✗": "x", "◌": "o", "◔": "~", "■": "#",
        "▰": "#", "▱": "-", "▌": "|", "─": "-", "│": "|", "┌": "+", "┐": "+", "└": "+", "┘": "+",
        "↑": "^", "↓": "v", "←": "<", "→": ">", "⇄": "=", "⏎": "<", "·": "-", "…": ".",
        "•": "&", "⊘": "%",  // unread, timed out (attention)
        "⚠": "!",  // warnings (a reply to another account, redeliveries)
    ]
    static let spinner: [Character] = ["|", "/", "-", "\\"]

    /// Rewrites `screen` in place. `…` becomes `...` (over the two cells before it when they hold text
    /// of the same style, as a three-dot truncation would); anything else non-ASCII becomes `?` per column.
    static func apply(to screen: inout Screen) {
        for y in 0..<screen.height {
            for x in 0..<screen.width {
                let cell = screen[x, y]
                if cell.isContinuation || cell.character.isASCII { continue }
                if cell.character == "…" {
                    for back in 1...2 where x - back >= 0 {
                        let before = screen[x - back, y]
                        if before.style == cell.style && before.width == 1 && before.character != " " {
                            screen[x - back, y] = Cell(character: ".", width: 1, style: cell.style)
                        }
                    }
                }
                if let i = StatusGlyph.spinner.firstIndex(of: cell.character) {
                    screen[x, y] = Cell(character: spinner[i % spinner.count], width: 1, style: cell.style)
                } else if let ascii = glyphs[cell.character] {
                    screen[x, y] = Cell(character: ascii, width: 1, style: cell.style)
                    if cell.width == 2, x + 1 < screen.width { screen[x + 1, y] = Cell(character: " ", width: 1, style: cell.style) }
                } else {
                    for k in 0..<Int(max(1, cell.width)) where x + k < screen.width {
                        screen[x + k, y] = Cell(character: "?", width: 1, style: cell.style)
                    }
                }
            }
        }
    }
}
