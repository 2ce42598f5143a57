/// How SQS delivered an event: when the queue accepted the message and how many times it was received.
/// Nil on events that did not come from a queue (`timeline import`) or were stored before it was kept.
public struct QueueDelivery: Sendable, Equatable, Hashable {
    /// SQS `SentTimestamp`: when the queue accepted the message, microseconds since the epoch.
    public var sentMicros: Int64?
    /// SQS `ApproximateReceiveCount` of the receive that stored the event.
    public var receiveCount: Int?

    public init(sentMicros: Int64? = nil, receiveCount: Int? = nil) {
        self.sentMicros = sentMicros
        self.receiveCount = receiveCount
    }

    /// From this many receives on, a message is flagged: something keeps failing to store or delete it,
    /// and a queue's redrive policy may soon move it to the dead-letter queue.
    public static let flaggedReceiveCount = 3

    /// True when the message was received `flaggedReceiveCount` times or more.
    public var isFlagged: Bool { (receiveCount ?? 0) >= Self.flaggedReceiveCount }

    /// How long the message waited in the queue before it was received at `receivedMicros` (never negative).
    public func queueDelayMicros(receivedMicros: Int64) -> Int64? {
        sentMicros.map { max(0, receivedMicros - $0) }
    }
}
