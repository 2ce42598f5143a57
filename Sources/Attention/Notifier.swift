import TimelineCore

/// One notification to deliver on every channel.
public struct Notification: Sendable, Equatable {
    public enum Kind: String, Sendable { case transition, burst, backlog }
    public var kind: Kind
    public var title: String
    public var body: String
    /// The transitions it is about (one for `.transition`, several for `.burst`, the tasks' newest for `.backlog`).
    public var transitions: [TaskTransition]

    public init(kind: Kind, title: String, body: String, transitions: [TaskTransition]) {
        self.kind = kind
        self.title = title
        self.body = body
        self.transitions = transitions
    }
}

/// The decisions, pure (time passed in): which transitions notify, how bursts coalesce, and the one
/// summary for the backlog.
///
/// - A transition into a status the policy names notifies, unless its task's detail is open.
/// - Live transitions wait `burstWindowMicros` from the first one; everything that came meanwhile is one
///   notification ("3 errors"); a lone transition names its task.
/// - Events stamped before the viewer started (the backlog waiting in the queue) give one summary, once
///   none has come for `burstWindowMicros`: "while you were away: 3 errors, 1 needs you" (tasks counted
///   by the status they ended in).
public struct Notifier: Sendable {
    public var policy: NotifyPolicy
    public let startedMicros: Int64
    public var burstWindowMicros: Int64
    private var pending: [TaskTransition] = []
    private var pendingSince: Int64?
    private var backlog: [String: TaskTransition] = [:]
    private var backlogOrder: [String] = []
    private var lastBacklogMicros: Int64?

    public init(policy: NotifyPolicy, startedMicros: Int64, burstWindowMicros: Int64 = 2_000_000) {
        self.policy = policy
        self.startedMicros = startedMicros
        self.burstWindowMicros = burstWindowMicros
    }

    /// Takes a transition that arrived at `nowMicros`; `openTaskID` is the task whose detail is on screen.
    public mutating func observe(_ transition: TaskTransition, nowMicros: Int64, openTaskID: String?) {
        guard policy.level != .off else { return }
        if transition.event.timestampMicros < startedMicros {
            if backlog[transition.taskID] == nil { backlogOrder.append(transition.taskID) }
            backlog[transition.taskID] = transition
            lastBacklogMicros = nowMicros
            return
        }
        // A live transition supersedes what the backlog said about the same task.
        if backlog.removeValue(forKey: transition.taskID) != nil { backlogOrder.removeAll { $0 == transition.taskID } }
        guard policy.notifies(transition.status), transition.taskID != openTaskID else { return }
        if pending.isEmpty { pendingSince = nowMicros }
        pending.append(transition)
    }

    /// The notifications due at `nowMicros` (call it regularly; `force` flushes everything, e.g. at exit).
    public mutating func due(nowMicros: Int64, force: Bool = false) -> [Notification] {
        var out: [Notification] = []
        if let last = lastBacklogMicros, force || nowMicros - last >= burstWindowMicros {
            let tasks = backlogOrder.compactMap { backlog[$0] }.filter { policy.notifies($0.status) }
            if !tasks.isEmpty {
                out.append(Notification(kind: .backlog, title: "timeline",
                                        body: "while you were away: " + NotificationText.counts(tasks.map(\.status)),
                                        transitions: tasks))
            }
            backlog = [:]
            backlogOrder = []
            lastBacklogMicros = nil
        }
        if let since = pendingSince, force || nowMicros - since >= burstWindowMicros {
            out.append(NotificationText.live(pending))
            pending = []
            pendingSince = nil
        }
        return out
    }

    /// True while something waits for its window to end.
    public var hasPending: Bool { pendingSince != nil || lastBacklogMicros != nil }
}
