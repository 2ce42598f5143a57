import TimelineCore

/// How the detail view describes an event's trip through the queue.
enum QueueText {
    /// `waited 1.25s in the queue · received once`, `… · received 4 times (something keeps failing)`.
    static func describe(_ delivery: QueueDelivery, receivedMicros: Int64) -> String {
        var parts: [String] = []
        if let delay = delivery.queueDelayMicros(receivedMicros: receivedMicros) {
            parts.append("waited \(DurationText.span(micros: delay, hundredths: true)) in the queue")
        }
        if let count = delivery.receiveCount {
            let times = count == 1 ? "once" : "\(count) times"
            parts.append("received \(times)" + (delivery.isFlagged ? " ⚠ redelivered: storing or deleting it failed before" : ""))
        }
        return parts.joined(separator: " · ")
    }
}
