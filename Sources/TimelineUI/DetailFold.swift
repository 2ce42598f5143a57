import TimelineCore

/// Long texts in the detail view (body, raw payload: up to 1 MiB each) are folded to their first screen;
/// `z` expands them. Folded, only a prefix is wrapped, so opening a huge event is instant. Expanded, the
/// wrapped lines are computed once (by `reduce`, on `z`, on resize and on new content) and kept in the
/// state, so scrolling never re-wraps a megabyte.
struct DetailFold {
    /// The wrapped lines of the expanded texts, for one event at one width.
    struct Unfolded: Sendable, Equatable {
        var eventID: String
        var width: Int
        var body: [String]
        var raw: [String]
    }

    /// Lines of `text` as the detail view shows it: whole when expanded or short, else the first `screen`
    /// lines and a note of how much more there is.
    static func lines(_ text: String, width: Int, screen: Int, expanded: Bool, cached: [String]?) -> (lines: [String], hiddenBytes: Int?) {
        if expanded { return (cached ?? TextWidth.wrapUntrusted(text, to: width), nil) }
        let screen = max(1, screen)
        // Each shown line holds at most `width` columns plus its line break: this prefix fills the screen.
        let prefixCharacters = screen * (width + 1)
        let prefix = text.utf8.count <= prefixCharacters ? text[...] : text.prefix(prefixCharacters)
        let wrapped = TextWidth.wrapUntrusted(String(prefix), to: width)
        guard wrapped.count > screen || prefix.endIndex != text.endIndex else { return (wrapped, nil) }
        let shown = Array(wrapped.prefix(screen))
        // Bytes not shown: everything after the prefix, plus the wrapped lines of the prefix cut off.
        let shownBytes = prefixBytesShown(prefix, lines: shown.count, of: wrapped.count)
        return (shown, max(1, text.utf8.count - shownBytes))
    }

    /// The note drawn under a folded text.
    static func note(hiddenBytes: Int) -> String {
        "… \(sizeText(hiddenBytes)) more · z: expand"
    }

    /// `812 B`, `14 KB`, `873 KB`, `1.0 MB` (decimal units).
    static func sizeText(_ bytes: Int) -> String {
        switch bytes {
        case ..<1_000: return "\(bytes) B"
        case ..<1_000_000: return "\(bytes / 1_000) KB"
        default:
            let tenths = bytes / 100_000
            return "\(tenths / 10).\(tenths % 10) MB"
        }
    }

    /// Approximate bytes of `prefix` covered by its first `lines` of `total` wrapped lines.
    private static func prefixBytesShown(_ prefix: Substring, lines: Int, of total: Int) -> Int {
        guard total > 0 else { return 0 }
        return prefix.utf8.count * lines / total
    }

    /// The expanded lines for the detail's event at the current width, computed once.
    static func refresh(_ s: inout AppState) {
        guard var d = s.detail, d.expanded, let event = d.row?.event else { return }
        let width = DetailLayout.contentWidth(s)
        if let u = d.unfolded, u.eventID == event.id, u.width == width { return }
        d.unfolded = Unfolded(eventID: event.id, width: width, body: TextWidth.wrapUntrusted(event.body, to: width),
                              raw: TextWidth.wrapUntrusted(event.rawJSON, to: width))
        s.detail = d
    }

    /// `z`: expands the folded texts, or folds them again.
    static func toggle(_ s: inout AppState) -> [Effect] {
        guard var d = s.detail else { return [] }
        d.expanded.toggle()
        if !d.expanded { d.unfolded = nil }
        s.detail = d
        refresh(&s)
        return scrollDetail(&s, by: 0)
    }
}
