import TimelineCore

/// How the detail view describes an event's trip through the queue.
enum QueueText {
    /// `waited 1.25 s in the queue · received once`, `… · received 4 times (something keeps failing)`.
    static func describe(_ delivery: QueueDelivery, receivedMicros: Int64) -> String {
        var parts: [String] = []
        if let delay = delivery.queueDelayMicros(receivedMicros: receivedMicros) {
            parts.append("waited \(duration(delay)) in the queue")
        }
        if let count = delivery.receiveCount {
            let times = count == 1 ? "once" : "\(count) times"
            parts.append("received \(times)" + (delivery.isFlagged ? " ⚠ redelivered: storing or deleting it failed before" : ""))
        }
        return parts.joined(separator: " · ")
    }

    /// `0.04 s`, `2.5 s`, `42 s`, then minutes, hours, days.
    static func duration(_ micros: Int64) -> String {
        let centis = micros / 10_000
        switch micros {
        case ..<10_000_000:
            let fraction = centis % 100
            return "\(centis / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
        case ..<60_000_000: return "\(micros / 1_000_000) s"
        default: return TimeFormat.relative(fromMicros: 0, nowMicros: micros)
        }
    }
}
