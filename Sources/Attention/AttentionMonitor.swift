import Dispatch
import Foundation
import Synchronization
import TimelineCore
import TimelineStore

/// Watches the store for events that arrive while a viewer (or `timeline poll`) runs, turns them into
/// task transitions (`TransitionTracker`) and notifications (`Notifier`), and reads the fleet counts.
/// Events stored before it started are never notified. Reads run on its own queue and connection, so
/// the terminal loop never waits on SQLite: `poll` starts a step, `take` collects what steps found.
public final class AttentionMonitor: Sendable {
    private let store: TimelineStore
    private let queue = DispatchQueue(label: "timeline.attention")
    /// What the steps carry from one to the next (used on `queue`, one step at a time).
    private struct Watch {
        var watermark: Int64
        var tracker = TransitionTracker()
        var notifier: Notifier
    }
    private let watch: Mutex<Watch>
    /// What the steps found, for `take`.
    private struct Found {
        var outbox: [Notification] = []
        var fleet: FleetCounts?
        var failure: String?
        var busy = false
        /// The fleet counts last read, so a step that reads the same ones does not wake the caller.
        var lastFleet: FleetCounts?
        /// Called (outside the lock) when a step found something new for `take`.
        var wake: (@Sendable () -> Void)?
    }
    private let found = Mutex(Found())

    /// Most events read per step (a large backlog is read over several steps).
    static let batch = 2_000

    public init(databasePath: String, policy: NotifyPolicy, startedMicros: Int64,
                burstWindowMicros: Int64 = 2_000_000) throws {
        // Reads only: a read-only connection keeps the small reader page cache (its counts scan whole indexes).
        store = try TimelineStore(path: databasePath, readOnly: true)
        watch = Mutex(Watch(
            watermark: try store.newestSeq(),
            notifier: Notifier(policy: policy, startedMicros: startedMicros, burstWindowMicros: burstWindowMicros)))
    }

    /// `wake` runs (on the monitor's queue) when a step found something new for `take`: notifications, a
    /// failure, or fleet counts unlike the last ones read. So a loop need not look for them on a timer.
    public func setWake(_ wake: (@Sendable () -> Void)?) {
        found.withLock { $0.wake = wake }
    }

    /// Starts one step in the background unless one is running: new events, due notifications, and the
    /// fleet counts (when `withFleet`). `openTaskID`: the task whose detail is open (it stays silent).
    public func poll(nowMicros: Int64, openTaskID: String?, withFleet: Bool) {
        let started = found.withLock { found -> Bool in
            if found.busy { return false }
            found.busy = true
            return true
        }
        guard started else { return }
        queue.async { [self] in step(nowMicros: nowMicros, openTaskID: openTaskID, withFleet: withFleet) }
    }

    /// Runs one step now (for `timeline poll` and tests).
    public func stepNow(nowMicros: Int64, openTaskID: String?, withFleet: Bool, force: Bool = false) {
        queue.sync { step(nowMicros: nowMicros, openTaskID: openTaskID, withFleet: withFleet, force: force) }
    }

    /// What steps found since the last call: notifications to deliver, the newest fleet counts, a failure.
    public func take() -> (notifications: [Notification], fleet: FleetCounts?, failure: String?) {
        found.withLock { found in
            defer { found.outbox = []; found.fleet = nil; found.failure = nil }
            return (found.outbox, found.fleet, found.failure)
        }
    }

    private func step(nowMicros: Int64, openTaskID: String?, withFleet: Bool, force: Bool = false) {
        var notifications: [Notification] = []
        var counts: FleetCounts?
        var problem: String?
        watch.withLock { watch in
            do {
                let arrived = try store.events(arrivedAfter: watch.watermark, limit: Self.batch)
                for item in arrived {
                    if !watch.tracker.isSeeded(item.event.taskID) {
                        let before = try store.taskState(item.event.taskID, arrivedUpTo: watch.watermark)
                        watch.tracker.seed(item.event.taskID, before.map { .init(status: $0.status, key: $0.key) })
                    }
                    if let transition = watch.tracker.apply(item.event, seq: item.seq) {
                        watch.notifier.observe(transition, nowMicros: nowMicros, openTaskID: openTaskID)
                    }
                }
                if let last = arrived.last { watch.watermark = last.seq }
                notifications = watch.notifier.due(nowMicros: nowMicros, force: force)
                if withFleet { counts = try store.fleetCounts() }
            } catch {
                problem = "notifications: \(error)"
            }
        }
        let wake = found.withLock { found -> (@Sendable () -> Void)? in
            found.outbox += notifications
            var new = !notifications.isEmpty || problem != nil
            if let counts {
                found.fleet = counts
                if counts != found.lastFleet { new = true }
                found.lastFleet = counts
            }
            if let problem { found.failure = problem }
            found.busy = false
            return new ? found.wake : nil
        }
        wake?()
    }
}
