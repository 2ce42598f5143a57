import Attention
import Terminal
import TimelineCore
import TimelineRuntime
import TimelineUI

/// Connects the attention relay to the terminal loop: its notices between frames, its fleet counts in the
/// header, its failures in the status bar.
final class TUIAttention: TerminalSideChannel {
    private let relay: AttentionRelay
    private var pending: [TerminalNotice] = []

    init(relay: AttentionRelay) { self.relay = relay }

    func startNotices() -> [TerminalNotice] { relay.startNotices }

    func setWake(_ wake: @escaping @Sendable () -> Void) { relay.setWake(wake) }

    func step(controller: TimelineController, nowMicros: Int64) -> Bool {
        let found = relay.step(nowMicros: nowMicros, openTaskID: controller.state.detail?.taskID)
        pending += found.notices
        var redraw = false
        // A failing notify command or store read shows in the status bar (until the next window load).
        if let failure = found.failure {
            controller.send(.loadFailed(failure))
            redraw = true
        }
        if let fleet = found.fleet {
            let counts = AttentionCounts(unreadErrors: fleet.unreadErrors, waiting: fleet.waiting)
            if controller.state.attention != counts { controller.send(.attention(counts)); redraw = true }
        }
        return redraw
    }

    func pendingNotices() -> [TerminalNotice] {
        defer { pending = [] }
        return pending
    }

    func exitNotices() -> [TerminalNotice] {
        relay.waitUntilIdle(timeout: 3)
        return relay.exitNotices
    }
}
