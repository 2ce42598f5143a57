import Attention
import Terminal
import TimelineRuntime
import TimelineUI

/// Connects the attention relay to the terminal loop: its bytes between frames, its fleet counts in the
/// header, its failures in the status bar.
final class TUIAttention: TerminalSideChannel {
    private let relay: AttentionRelay
    private var pending: [UInt8] = []

    init(relay: AttentionRelay) { self.relay = relay }

    func startBytes() -> [UInt8] { relay.startBytes }

    func step(controller: TimelineController, nowMicros: Int64) -> Bool {
        let found = relay.step(nowMicros: nowMicros, openTaskID: controller.state.detail?.taskID)
        pending += found.terminalBytes
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

    func pendingBytes() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    func exitBytes() -> [UInt8] {
        relay.waitUntilIdle(timeout: 3)
        return relay.exitBytes
    }
}
