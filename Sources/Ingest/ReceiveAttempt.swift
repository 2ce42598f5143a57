import Foundation
import TimelineCore

/// The `ReceiveRequestAttemptId` of a FIFO queue's receives: a new id for each fresh receive, the same
/// id again when the previous receive failed with a retryable error, so SQS returns the messages it
/// already handed to the lost call instead of hiding them (and blocking their group) until the
/// visibility timeout. Standard queues ignore the parameter, so none is sent to them.
struct ReceiveAttempt {
    let isFIFO: Bool
    private var pending: String?

    init(queueURL: String) { isFIFO = AWSNames.isFIFO(queueURL) }

    /// The id for the next receive (nil on standard queues).
    mutating func idForNextReceive() -> String? {
        guard isFIFO else { return nil }
        if let pending { return pending }
        let id = UUID().uuidString
        pending = id
        return id
    }

    /// The receive answered: the next one is a fresh attempt.
    mutating func succeeded() { pending = nil }
}
