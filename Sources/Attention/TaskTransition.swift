import TimelineCore

/// A task's newest event changed its status (or the task is new): the unit a notification is about.
public struct TaskTransition: Sendable, Equatable {
    public var event: Event
    /// Arrival sequence of `event` in the store.
    public var seq: Int64
    /// The task's status before `event` (nil: the task is new).
    public var previous: Status?

    public init(event: Event, seq: Int64, previous: Status?) {
        self.event = event
        self.seq = seq
        self.previous = previous
    }

    public var taskID: String { event.taskID }
    public var status: Status { event.status }
}

/// Follows each task's newest event (newest wins by `(timestamp, seq)`) and reports status changes.
/// A late, older event changes nothing, and a repeated status is no transition: so a notification fires
/// once per (task, transition).
public struct TransitionTracker: Sendable {
    public struct Known: Sendable, Equatable {
        public var status: Status
        public var key: RowKey
        public init(status: Status, key: RowKey) {
            self.status = status
            self.key = key
        }
    }

    private var known: [String: Known] = [:]
    public init() {}

    /// Records what the task looked like before the events being watched (nil: it did not exist).
    public mutating func seed(_ taskID: String, _ state: Known?) {
        if let state { known[taskID] = state } else { known.removeValue(forKey: taskID) }
        seeded.insert(taskID)
    }

    private var seeded: Set<String> = []
    /// True when `seed` was called for the task (its state before the watch is settled, even if nil).
    public func isSeeded(_ taskID: String) -> Bool { seeded.contains(taskID) }

    /// Applies one new event; returns the transition it makes, if any.
    public mutating func apply(_ event: Event, seq: Int64) -> TaskTransition? {
        seeded.insert(event.taskID)
        let key = RowKey(timestampMicros: event.timestampMicros, seq: seq)
        let before = known[event.taskID]
        if let before, key < before.key { return nil }
        known[event.taskID] = Known(status: event.status, key: key)
        if let before, before.status == event.status { return nil }
        return TaskTransition(event: event, seq: seq, previous: before?.status)
    }
}
