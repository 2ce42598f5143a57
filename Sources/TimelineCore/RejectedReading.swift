/// Reading the messages that were stored as rejected (not valid events); `TimelineStore` implements it.
public protocol RejectedReading: AnyObject {
    /// Rejected messages, newest first, strictly older than the arrival sequence `seq` when given.
    func rejected(limit: Int, olderThan seq: Int64?) throws -> [RejectedMessage]
    /// How many rejected messages are stored.
    func rejectedCount() throws -> Int
}
