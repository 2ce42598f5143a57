import TimelineCore

/// The words of notifications and of the fleet line, from statuses and counts.
public enum NotificationText {
    /// "3 errors", "1 needs you", "2 warnings", "1 finished".
    public static func phrase(_ status: Status, _ n: Int) -> String {
        if NotifyPolicy.isWaiting(status) { return n == 1 ? "1 needs you" : "\(n) need you" }
        let (one, many) = words[status] ?? (status.rawValue, status.rawValue)
        return "\(n) \(n == 1 ? one : many)"
    }

    /// Singular and plural per status (a status without words is named by its payload spelling).
    static let words: [Status: (String, String)] = [
        .error: ("error", "errors"), .warning: ("warning", "warnings"), .success: ("finished", "finished"),
        .inProgress: ("running", "running"), .info: ("info", "info"),
    ]

    /// Counts by status, most urgent first: "3 errors, 1 needs you".
    public static func counts(_ statuses: [Status]) -> String {
        var n: [Status: Int] = [:]
        for s in statuses { n[s, default: 0] += 1 }
        return order.compactMap { s in n[s].map { phrase(s, $0) } }.joined(separator: ", ")
    }

    /// Display order of statuses in summaries: waiting first, then by how bad.
    static var order: [Status] {
        Status.allCases.filter(NotifyPolicy.isWaiting) + [.error, .warning, .success, .inProgress, .info]
    }

    /// One live notification: a lone transition names its task; several are counted.
    static func live(_ transitions: [TaskTransition]) -> Notification {
        if transitions.count == 1, let t = transitions.first {
            let label = NotifyPolicy.isWaiting(t.status) ? "needs you" : t.status.rawValue
            return Notification(kind: .transition, title: "timeline: \(t.event.agentID) \(label)",
                                body: t.event.title, transitions: transitions)
        }
        return Notification(kind: .burst, title: "timeline", body: counts(transitions.map(\.status)),
                            transitions: transitions)
    }
}
