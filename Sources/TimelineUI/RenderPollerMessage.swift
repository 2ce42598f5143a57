import Foundation
import TimelineCore

/// The full message of a stopped or retrying poller (the `!` overlay), nil while it is fine.
func pollerMessage(_ p: PollerStatusView) -> String? {
    switch p.state {
    case .stopped(let problem): return "Polling stopped: " + problem.explanation
    case .backingOff(_, let problem): return "Polling is retrying after an error: " + problem.explanation
    case .connecting, .connected, .receiving, .disabled: return nil
    }
}

/// The `!` overlay: the poller's full message, wrapped, with what to press next.
func renderPollerMessage(_ state: AppState, into screen: inout Screen) {
    let width = min(screen.width - 2, 76)
    guard width > 6, screen.height >= 3 else { return }
    let full = pollerMessage(state.poller) ?? PollerText.describe(state.poller, nowMicros: state.nowMicros)
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
