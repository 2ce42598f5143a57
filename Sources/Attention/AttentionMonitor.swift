import Dispatch
import Foundation
import TimelineCore
import TimelineStore

/// Watches the store for events that arrive while a viewer (or `timeline poll`) runs, turns them into
/// task transitions (`TransitionTracker`) and notifications (`Notifier`), and reads the fleet counts.
/// Events stored before it started are never notified. Reads run on its own queue and connection, so
/// the terminal loop never waits on SQLite: `poll` starts a step, `take` collects what steps found.
public final class AttentionMonitor: @unchecked Sendable {
    private let store: TimelineStore
    private let queue = DispatchQueue(label: "timeline.attention")
    private let lock = NSLock()
    // Touched only on `queue`.
    private var watermark: Int64
    private var tracker = TransitionTracker()
    private var notifier: Notifier
    // Guarded by `lock`.
    private var outbox: [Notification] = []
    private var fleet: FleetCounts?
    private var failure: String?
    private var busy = false

    /// Most events read per step (a large backlog is read over several steps).
    static let batch = 2_000

    public init(databasePath: String, policy: NotifyPolicy, startedMicros: Int64,
                burstWindowMicros: Int64 = 2_000_000) throws {
        // Reads only: a read-only connection keeps the small reader page cache (its counts scan whole indexes).
        store = try TimelineStore(path: databasePath, readOnly: true)
        watermark = try store.newestSeq()
        notifier = Notifier(policy: policy, startedMicros: startedMicros, burstWindowMicros: burstWindowMicros)
    }

    /// Starts one step in the background unless one is running: new events, due notifications, and the
    /// fleet counts (when `withFleet`). `openTaskID`: the task whose detail is open (it stays silent).
    public func poll(nowMicros: Int64, openTaskID: String?, withFleet: Bool) {
        lock.lock()
        if busy { lock.unlock(); return }
        busy = true
        lock.unlock()
        queue.async { [self] in step(nowMicros: nowMicros, openTaskID: openTaskID, withFleet: withFleet) }
    }

    /// Runs one step now (for `timeline poll` and tests).
    public func stepNow(nowMicros: Int64, openTaskID: String?, withFleet: Bool, force: Bool = false) {
        queue.sync { step(nowMicros: nowMicros, openTaskID: openTaskID, withFleet: withFleet, force: force) }
    }

    /// What steps found since the last call: notifications to deliver, the newest fleet counts, a failure.
    public func take() -> (notifications: [Notification], fleet: FleetCounts?, failure: String?) {
        lock.lock()
        defer { outbox = []; fleet = nil; failure = nil; lock.unlock() }
        return (outbox, fleet, failure)
    }

    private func step(nowMicros: Int64, openTaskID: String?, withFleet: Bool, force: Bool = false) {
        var found: [Notification] = []
        var counts: FleetCounts?
        var problem: String?
        do {
            let arrived = try store.events(arrivedAfter: watermark, limit: Self.batch)
            for item in arrived {
                if !tracker.isSeeded(item.event.taskID) {
                    let before = try store.taskState(item.event.taskID, arrivedUpTo: watermark)
                    tracker.seed(item.event.taskID, before.map { .init(status: $0.status, key: $0.key) })
                }
                if let transition = tracker.apply(item.event, seq: item.seq) {
                    notifier.observe(transition, nowMicros: nowMicros, openTaskID: openTaskID)
                }
            }
            if let last = arrived.last { watermark = last.seq }
            found = notifier.due(nowMicros: nowMicros, force: force)
            if withFleet { counts = try store.fleetCounts() }
        } catch {
            problem = "notifications: \(error)"
        }
        lock.lock()
        outbox += found
        if let counts { fleet = counts }
        if let problem { failure = problem }
        busy = false
        lock.unlock()
    }
}
