import Foundation

/// Poller errors in a form people can read: a one-line summary for the status bar and the empty state,
/// and the full message (with its fix) for the `!` overlay.
enum PollerMessage {
    /// The full message of a stopped or retrying poller, nil while it is fine.
    static func full(_ p: PollerStatusView) -> String? {
        switch p.state {
        case .stopped(let reason): return "Polling stopped: " + reason
        case .backingOff(_, let reason): return "Polling is retrying after an error: " + reason
        case .connecting, .connected, .receiving, .disabled: return nil
        }
    }

    /// The first sentence of `reason`, without parenthesised details, and URLs cut to their last part
    /// (`queue http://host/123/jobs does not exist (…). Check …` → `queue jobs does not exist`).
    static func summary(_ reason: String) -> String {
        var text = reason
        for separator in [". ", "; ", ": "] where separator != ": " || text.count > 60 {
            if let r = text.range(of: separator) { text = String(text[..<r.lowerBound]) }
        }
        while let open = text.range(of: " ("), let close = text.range(of: ")", range: open.upperBound..<text.endIndex) {
            text.removeSubrange(open.lowerBound..<close.upperBound)
        }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.hasPrefix("http://") || word.hasPrefix("https://") else { return String(word) }
            let parts = word.split(separator: "/")
            return parts.count > 2 ? String(parts[parts.count - 1]) : String(word)
        }
        return words.joined(separator: " ")
    }
}

/// The `!` overlay: the poller's full message, wrapped, with what to press next.
func renderPollerMessage(_ state: AppState, into screen: inout Screen) {
    let width = min(screen.width - 2, 76)
    guard width > 6, screen.height >= 3 else { return }
    let full = PollerMessage.full(state.poller) ?? PollerText.describe(state.poller, nowMicros: state.nowMicros)
    var lines = TextWidth.wrap(TextWidth.safe(full), to: width - 2)
    lines.append("")
    if case .stopped = state.poller.state { lines += TextWidth.wrap("R restarts polling once the cause is fixed.", to: width - 2) }
    lines += TextWidth.wrap("Any key closes.", to: width - 2)
    let inner = min(screen.height - 2, lines.count)
    let box = OverlayBox(innerWidth: width, innerHeight: inner, centeredOn: screen)
    let (x0, y0) = (box.x0, box.y0)
    box.draw(title: " Poller ", style: Style(fg: .error, bold: true), into: &screen)
    for (i, line) in lines.prefix(inner).enumerated() {
        screen.put(line, x: x0 + 2, y: y0 + 1 + i, style: .plain, limit: width - 2)
    }
}
