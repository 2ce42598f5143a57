import Foundation
import TimelineCore

/// The `retention` setting at work in `poll` and `tui`: prunes events older than the retention once a day
/// (at start when the last prune is a day old or more, recorded in the database, then checked hourly), on
/// its own connection and thread. Space is not rebuilt (freed pages are reused); `timeline prune` does that.
public final class RetentionTimer: Sendable {
    private let databasePath: String
    private let keepSeconds: Int64
    private let log: (@Sendable (String) -> Void)?
    private let stopSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()

    /// How long between prunes.
    public static let interval: Int64 = 86_400
    /// How often the thread checks whether a prune is due.
    static let checkEverySeconds = 3_600
    /// The setting holding the time of the last prune (microseconds).
    public static let lastPruneKey = "retention.last_prune_us"

    /// Starts the timer; nil when `keepSeconds` is nil (retention off). `log` gets one line per decision.
    public static func start(databasePath: String, keepSeconds: Int64?, log: (@Sendable (String) -> Void)?) -> RetentionTimer? {
        guard let keepSeconds else { return nil }
        let timer = RetentionTimer(databasePath: databasePath, keepSeconds: keepSeconds, log: log)
        timer.finished.enter()
        Thread.detachNewThread { [timer] in
            ThreadName.nameThisThread("tl-retention")
            defer { timer.finished.leave() }
            TimelineStore.runThisThreadAsUpkeep()
            var first = true
            repeat {
                timer.pruneIfDue(nowMicros: TimeFormat.nowMicros(), sayWhenNotDue: first)
                first = false
            } while timer.stopSignal.wait(timeout: .now() + .seconds(checkEverySeconds)) == .timedOut
        }
        return timer
    }

    init(databasePath: String, keepSeconds: Int64, log: (@Sendable (String) -> Void)?) {
        self.databasePath = databasePath
        self.keepSeconds = keepSeconds
        self.log = log
    }

    /// Stops the timer and waits for a prune in progress to finish.
    public func stop() {
        stopSignal.signal()
        finished.wait()
    }

    /// Prunes when the last prune is a day old or more; `sayWhenNotDue` logs the decision otherwise (at start).
    /// Returns what was pruned, nil when nothing was due or the prune failed (logged: retried in an hour).
    @discardableResult
    func pruneIfDue(nowMicros now: Int64, sayWhenNotDue: Bool) -> PruneReport? {
        do {
            let store = try TimelineStore(path: databasePath)
            if let last = try store.setting(Self.lastPruneKey).flatMap(Int64.init), now - last < Self.interval * 1_000_000 {
                if sayWhenNotDue {
                    log?("retention: last pruned \(TimeFormat.relative(fromMicros: last, nowMicros: now)) ago; next prune within a day")
                }
                return nil
            }
            let report = try store.prune(olderThan: now - keepSeconds * 1_000_000, keepRunning: false, reclaimSpace: false)
            try store.setSetting(Self.lastPruneKey, String(now))
            log?("retention: deleted \(report.eventsDeleted) events (\(report.tasksDeleted) whole tasks) and "
                + "\(report.rejectedDeleted) rejected messages older than \(DurationText.text(seconds: keepSeconds))")
            return report
        } catch {
            log?("retention: prune failed: \(error) (will retry in an hour)")
            return nil
        }
    }
}
