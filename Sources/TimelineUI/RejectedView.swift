import TimelineCore

/// The messages stored as rejected (not valid events): their count, for the header, and the `X` overlay.
public struct RejectedState: Sendable, Equatable {
    /// How many are stored (nil until the first count arrives).
    public var count: Int?
    /// The newest ones, newest first, read while the overlay is open.
    public var newest: [RejectedMessage] = []
    /// The overlay is open.
    public var open = false
    /// First overlay line shown.
    public var scroll = 0
    public init() {}
}

/// The `X` overlay: each rejected message's reason, SQS message id, arrival and body (escaped), newest
/// first; it scrolls like the help. Layout shared by `reduce` (scrolling) and `render`.
enum RejectedView {
    /// The key that opens it.
    static let key: Character = "X"
    /// Messages read for the overlay (`timeline rejected` lists them all).
    static let limit = 200
    /// Lines of one body shown; the rest is cut with `…`.
    static let bodyLines = 4

    /// Keeps the header's count (and the open overlay's messages) current.
    static func load(_ s: AppState) -> Effect { .loadRejected(limit: s.rejected.open ? limit : 0) }

    static func open(_ s: inout AppState) -> [Effect] {
        s.rejected.open = true
        s.rejected.scroll = 0
        return [load(s)]
    }

    static func apply(_ s: inout AppState, count: Int, newest: [RejectedMessage]) -> [Effect] {
        s.rejected.count = count
        if s.rejected.open { s.rejected.newest = newest }
        s.rejected.scroll = min(s.rejected.scroll, hiddenLines(s))
        return []
    }

    /// While the overlay is open: movement keys scroll it, any other key closes it.
    static func reduceKey(_ s: inout AppState, _ key: Key) -> [Effect] {
        let page = visibleLines(s)
        let step: Int? = switch key {
        case .char("j"), .down, .ctrl("n"): 1
        case .char("k"), .up, .ctrl("p"): -1
        case .pageDown, .char(" "), .ctrl("f"), .ctrl("d"): page
        case .pageUp, .char("b"), .ctrl("b"), .ctrl("u"): -page
        case .char("g"), .home: Int.min / 2
        case .char("G"), .end: Int.max / 2
        default: nil
        }
        guard let step else {
            var closed = RejectedState()
            closed.count = s.rejected.count
            s.rejected = closed
            return []
        }
        s.rejected.scroll = min(max(0, s.rejected.scroll &+ step), hiddenLines(s))
        return []
    }

    typealias Line = (text: String, style: Style)

    static func innerWidth(_ width: Int) -> Int { min(width - 2, 100) }
    static func innerHeight(_ height: Int) -> Int { max(1, height - 2) }

    /// Every line of the overlay for a box `width` columns inside.
    static func lines(_ s: AppState, width: Int) -> [Line] {
        let room = max(1, width - 2)
        let count = s.rejected.count ?? s.rejected.newest.count
        var out: [Line] = []
        let summary = count > s.rejected.newest.count
            ? "\(Thousands.format(count)) rejected, the newest \(s.rejected.newest.count) first · all: timeline rejected"
            : "\(Thousands.format(count)) rejected, newest first"
        out += TextWidth.wrap(summary, to: room).map { ($0, Style(fg: .muted)) }
        for m in s.rejected.newest {
            out.append(("", .plain))
            out += TextWidth.wrap("✗ " + TextWidth.safe(m.reason), to: room).map { ($0, Style(fg: .error, bold: true)) }
            let id = m.messageID.map { "message id " + TextWidth.safe($0) } ?? "no message id"
            let when = s.absoluteTime ? Times.absolute(m.receivedMicros, s) : Times.ago(m.receivedMicros, s)
            out += TextWidth.wrap("\(id) · received \(when)", to: room).map { ($0, Style(fg: .muted)) }
            var body = TextWidth.wrap(DisplayText.escaped(m.rawBody), to: room)
            if body.count > bodyLines {
                body = Array(body.prefix(bodyLines))
                var last = body[bodyLines - 1]
                while TextWidth.of(last) > room - 1, !last.isEmpty { last.removeLast() }
                body[bodyLines - 1] = last + "…"
            }
            out += body.map { ($0, .plain) }
        }
        return out
    }

    static func visibleLines(_ s: AppState) -> Int { innerHeight(s.height) }

    static func hiddenLines(_ s: AppState) -> Int {
        guard s.rejected.open else { return 0 }
        return max(0, lines(s, width: innerWidth(s.width)).count - visibleLines(s))
    }
}

/// Draws the `X` overlay over the view.
func renderRejected(_ state: AppState, into screen: inout Screen) {
    let width = RejectedView.innerWidth(screen.width)
    guard width > 6, screen.height >= 3 else { return }
    let lines = RejectedView.lines(state, width: width)
    let inner = min(RejectedView.innerHeight(screen.height), lines.count)
    let hidden = max(0, lines.count - inner)
    let scroll = min(max(0, state.rejected.scroll), hidden)
    let box = OverlayBox(innerWidth: width, innerHeight: inner, centeredOn: screen)
    let border = Style(fg: .warning, bold: true)
    let long = " Rejected messages · any key closes "
    box.draw(title: TextWidth.of(long) <= box.titleRoom ? long : " Rejected ", style: border, into: &screen)
    if hidden > 0 {
        let more = "\(scroll > 0 ? "↑" : " ")\(scroll < hidden ? "↓" : " ") j/k "
        screen.put(more, x: box.x0 + max(1, width - TextWidth.of(more)), y: box.y0 + inner + 1, style: border, limit: width)
    }
    for (i, line) in lines.dropFirst(scroll).prefix(inner).enumerated() {
        screen.put(line.text, x: box.x0 + 2, y: box.y0 + 1 + i, style: line.style, limit: width - 2)
    }
}
