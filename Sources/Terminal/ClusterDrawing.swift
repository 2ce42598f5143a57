/// How one grapheme cluster is handed to ncurses so that the terminal's cursor ends exactly where the
/// grid expects (`Cell.width` columns later), whatever the terminal makes of emoji sequences.
///
/// ncurses and the terminal measure with wcwidth one scalar at a time. A ZWJ sequence (👨‍👩‍👧‍👦) or a
/// skin-tone modifier (👍🏽) is one cell of width 2 to us, but a terminal without joining support draws
/// every part: the cursor drifts and stray pieces (`WJ`, half emoji) stay on screen after a redraw. So
/// joiners and what they join, emoji modifiers and variation selectors are dropped (the base emoji stands
/// for the whole sequence, at the cluster's width); the rest is drawn as spacing characters with their
/// combining marks while they fit, and blanks fill the cell to its width.
enum ClusterDrawing {
    struct Plan: Equatable {
        /// Each piece: one spacing scalar and its combining marks, drawn at successive columns.
        var pieces: [[UInt32]]
        /// Blank columns after the pieces, up to the cell's width.
        var blanks: Int
    }

    static let zeroWidthJoiner: UInt32 = 0x200D

    /// Emoji skin-tone modifiers (U+1F3FB–U+1F3FF) and variation selectors (U+FE00–U+FE0F).
    static func isDropped(_ scalar: UInt32) -> Bool {
        (0x1F3FB...0x1F3FF).contains(scalar) || (0xFE00...0xFE0F).contains(scalar)
    }

    /// `scalars` of one cluster in a cell `width` columns wide; `wcwidth` as libc (and so ncurses) measures.
    static func plan(_ scalars: [UInt32], width: Int, wcwidth: (UInt32) -> Int) -> Plan {
        var kept: [UInt32] = []
        var joined = false
        for scalar in scalars {
            if scalar == zeroWidthJoiner { joined = true; continue }
            if joined { joined = false; if !isDropped(scalar) && wcwidth(scalar) != 0 { continue } }
            if isDropped(scalar) { continue }
            kept.append(scalar)
        }
        var pieces: [[UInt32]] = []
        var column = 0
        var start = 0
        while start < kept.count {
            var end = start + 1
            while end < kept.count && wcwidth(kept[end]) == 0 { end += 1 }
            let w = wcwidth(kept[start])
            // A scalar libc cannot measure (unassigned, a control) or one that would overflow: stop here.
            guard w > 0, column + w <= width else { break }
            pieces.append(Array(kept[start..<min(end, start + 5)]))
            column += w
            start = end
        }
        return Plan(pieces: pieces, blanks: max(0, width - column))
    }
}
