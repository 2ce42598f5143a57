import Attention
import Foundation
import Terminal
import TimelineRuntime
import TimelineUI

/// Hands the attention monitor's findings to the terminal: notifications (in-band sequence + BEL, the
/// notify command, notify-send), the fleet in the window title (restored on exit), and the header's
/// unread/waiting counts.
final class TUIAttention: TerminalSideChannel {
    private let monitor: AttentionMonitor
    private let sequence: InBandNotification.Sequence
    private let tmux: Bool
    private let command: CommandChannel?
    private let desktop: DesktopChannel?
    private let setsTitle: Bool
    private let failures: NotifyFailures
    private var pending: [UInt8] = []
    private var lastTitle: String?
    private var lastFleetPoll: Int64 = 0
    private var lastPoll: Int64 = 0
    /// How often new events are looked for (a cheap indexed read) and the fleet counts (title, header) read.
    static let pollEveryMicros: Int64 = 250_000
    static let fleetEveryMicros: Int64 = 1_000_000

    init(monitor: AttentionMonitor, sequence: InBandNotification.Sequence, command: CommandChannel?,
         failures: NotifyFailures, environment env: [String: String], setsTitle: Bool) {
        self.failures = failures
        self.monitor = monitor
        self.sequence = sequence
        tmux = !(env["TMUX"] ?? "").isEmpty
        self.command = command
        desktop = DesktopChannel(environment: env)
        self.setsTitle = setsTitle
    }

    func startBytes() -> [UInt8] { setsTitle ? TerminalTitle.push : [] }

    func step(controller: TimelineController, nowMicros: Int64) -> Bool {
        let taken = monitor.take()
        var redraw = false
        for n in taken.notifications {
            pending += InBandNotification.bytes(title: n.title, body: n.body, sequence: sequence, tmux: tmux)
            command?.deliver(n)
            desktop?.deliver(n)
        }
        // A failing notify command or store read shows in the status bar (until the next window load).
        if let failure = taken.failure ?? failures.take() {
            controller.send(.loadFailed(failure))
            redraw = true
        }
        if let fleet = taken.fleet {
            let counts = AttentionCounts(unreadErrors: fleet.unreadErrors, waiting: fleet.waiting)
            if controller.state.attention != counts { controller.send(.attention(counts)); redraw = true }
            let title = FleetLine.title(fleet)
            if setsTitle && title != lastTitle {
                pending += TerminalTitle.set(title)
                lastTitle = title
            }
        }
        guard nowMicros - lastPoll >= Self.pollEveryMicros else { return redraw }
        lastPoll = nowMicros
        let withFleet = nowMicros - lastFleetPoll >= Self.fleetEveryMicros
        if withFleet { lastFleetPoll = nowMicros }
        monitor.poll(nowMicros: nowMicros, openTaskID: controller.state.detail?.taskID, withFleet: withFleet)
        return redraw
    }

    func pendingBytes() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    func exitBytes() -> [UInt8] {
        command?.waitUntilIdle(timeout: 3)
        return setsTitle ? TerminalTitle.pop : []
    }
}

/// The newest notify-command failure, handed from the command's queue to the terminal loop.
final class NotifyFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: String?

    func put(_ message: String) {
        lock.lock()
        latest = message
        lock.unlock()
    }

    func take() -> String? {
        lock.lock()
        defer { latest = nil; lock.unlock() }
        return latest
    }
}
