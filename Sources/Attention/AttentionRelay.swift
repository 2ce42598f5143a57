import Foundation
import Synchronization
import TimelineCore
import TimelineStore

/// Hands the attention monitor's findings on, the one way `timeline tui` and `timeline poll` both use:
/// every notification goes to each channel configured (the terminal's in-band sequence, the notify
/// command, notify-send), the fleet counts and the title they make come back to the caller, and the
/// monitor is asked for new events at a steady cadence.
public final class AttentionRelay {
    /// What a step found for the caller to show.
    public struct Findings: Equatable {
        /// What to show on the terminal (notifications and the title), none without a terminal.
        public var notices: [TerminalNotice] = []
        /// The newest fleet counts, when they were read.
        public var fleet: FleetCounts?
        /// A failing notify command or store read.
        public var failure: String?
    }

    /// The terminal the relay tells (nil: none, as in `timeline poll`); `Terminal` decides the bytes.
    public struct TerminalOutput {
        public var setsTitle: Bool

        public init(setsTitle: Bool) { self.setsTitle = setsTitle }
    }

    /// How often new events are looked for (a cheap indexed read) and the fleet counts read.
    public static let pollEveryMicros: Int64 = 250_000
    public static let fleetEveryMicros: Int64 = 1_000_000

    private let monitor: AttentionMonitor
    private let terminal: TerminalOutput?
    private let command: CommandChannel?
    private let desktop: DesktopChannel?
    private let failures = LatestFailure()
    private var lastTitle: String?
    private var lastPoll: Int64 = .min / 2
    private var lastFleetPoll: Int64 = .min / 2

    /// `notifyCommand`: the `--notify-command` words (nil: none); its failures come back in `Findings`.
    public init(monitor: AttentionMonitor, terminal: TerminalOutput?, notifyCommand: [String]?,
                desktop: DesktopChannel?) {
        self.monitor = monitor
        self.terminal = terminal
        let failures = failures
        command = notifyCommand.map { CommandChannel(argv: $0, onFailure: { failures.put($0) }) }
        self.desktop = desktop
    }

    /// Delivers what the monitor found since the last step, and starts its next read when one is due.
    /// `openTaskID`: the task whose detail is open (it stays silent).
    public func step(nowMicros: Int64, openTaskID: String?) -> Findings {
        var findings = deliver(monitor.take())
        if nowMicros - lastPoll >= Self.pollEveryMicros {
            lastPoll = nowMicros
            let withFleet = terminal != nil && nowMicros - lastFleetPoll >= Self.fleetEveryMicros
            if withFleet { lastFleetPoll = nowMicros }
            monitor.poll(nowMicros: nowMicros, openTaskID: openTaskID, withFleet: withFleet)
        }
        if findings.failure == nil { findings.failure = failures.take() }
        return findings
    }

    /// Reads and delivers now, without waiting for the cadence (`timeline poll`); `force` also sends what
    /// still waits for its burst window (at exit).
    public func stepNow(nowMicros: Int64, force: Bool = false) -> Findings {
        monitor.stepNow(nowMicros: nowMicros, openTaskID: nil, withFleet: false, force: force)
        var findings = deliver(monitor.take())
        if findings.failure == nil { findings.failure = failures.take() }
        return findings
    }

    /// `wake` runs (on any thread) when the monitor found something for the next `step`.
    public func setWake(_ wake: (@Sendable () -> Void)?) { monitor.setWake(wake) }

    /// Waits (at most `timeout` seconds) for notify commands still running.
    public func waitUntilIdle(timeout: Double) {
        command?.waitUntilIdle(timeout: timeout)
    }

    /// What a terminal gets first (the title saved) and last (restored).
    public var startNotices: [TerminalNotice] { terminal?.setsTitle == true ? [.saveWindowTitle] : [] }
    public var exitNotices: [TerminalNotice] { terminal?.setsTitle == true ? [.restoreWindowTitle] : [] }

    private func deliver(_ taken: (notifications: [Notification], fleet: FleetCounts?, failure: String?)) -> Findings {
        var findings = Findings(fleet: taken.fleet, failure: taken.failure)
        for n in taken.notifications {
            if terminal != nil { findings.notices.append(.notification(title: n.title, body: n.body)) }
            command?.deliver(n)
            desktop?.deliver(n)
        }
        if let fleet = taken.fleet, let terminal, terminal.setsTitle {
            let title = FleetLine.title(fleet)
            if title != lastTitle {
                findings.notices.append(.windowTitle(title))
                lastTitle = title
            }
        }
        return findings
    }
}

/// The newest notify-command failure, handed from the command's queue to the caller's loop.
final class LatestFailure: Sendable {
    private let latest = Mutex<String?>(nil)

    func put(_ message: String) { latest.withLock { $0 = message } }

    func take() -> String? {
        latest.withLock { latest in
            defer { latest = nil }
            return latest
        }
    }
}
