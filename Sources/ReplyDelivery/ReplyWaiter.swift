import Foundation
import SQSClient
import TimelineCore

/// Waits on a reply queue for the accepted reply to one question (`timeline ask`, and the Python `ask()`
/// mirrors it). Each message is read as a reply and checked with `ReplyAcceptance`:
/// - the reply that passes is deleted and returned;
/// - a reply to this question that fails is deleted and reported (`onRefused`), and waiting goes on;
/// - anything else (other questions' replies, other messages) is released at once for its owner, and the next
///   receive waits a little longer (`OthersBackoff`), so a shared queue is not polled in a tight loop and
///   others' receive counts climb slowly.
public struct ReplyWaiter {
    public var client: SQSClient
    public var queueURL: String
    public var acceptance: ReplyAcceptance
    public var backoff = OthersBackoff()
    /// Called for each refused reply to this question with the reason (raw text: escape it before printing).
    public var onRefused: (Reply, ReplyRefusal) -> Void = { _, _ in }
    public var now: () -> Date = { Date() }
    public var sleep: (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }

    public init(client: SQSClient, queueURL: String, acceptance: ReplyAcceptance) {
        self.client = client
        self.queueURL = queueURL
        self.acceptance = acceptance
    }

    /// The accepted reply, or nil when none came within `seconds`.
    public mutating func wait(seconds: TimeInterval) throws(SQSError) -> Reply? {
        let deadline = now().addingTimeInterval(seconds)
        var delay: TimeInterval = 0
        while true {
            if delay > 0 { sleep(min(delay, max(0, deadline.timeIntervalSince(now())))) }
            let remaining = Int(deadline.timeIntervalSince(now()).rounded(.up))
            if remaining <= 0 { return nil }
            let messages = try client.receiveMessage(queueURL: queueURL, maxMessages: 10, waitSeconds: min(20, remaining))
            var found: Reply?
            var others: [SQSMessage] = []
            for message in messages {
                guard case .success(let reply) = Reply.parse(message.body) else { others.append(message); continue }
                if found != nil {
                    // The question is answered: a second reply to it is left alone unless it is one (then dropped).
                    if reply.inReplyTo == acceptance.question.eventID { try? delete(message) } else { others.append(message) }
                    continue
                }
                switch acceptance.check(reply, senderID: message.senderID) {
                case .success(let accepted):
                    try delete(message)
                    found = accepted
                case .failure(.notThisQuestion):
                    others.append(message)
                case .failure(let refusal):
                    try? delete(message)  // not deleted: it comes back and is refused as already seen
                    onRefused(reply, refusal)
                }
            }
            for message in others {
                // Visible again at once for its owner; it becomes visible by itself anyway if this fails.
                try? client.changeMessageVisibility(queueURL: queueURL, receiptHandle: message.receiptHandle, visibilityTimeout: 0)
            }
            if let found { return found }
            delay = backoff.next(receivedOnlyOthers: !others.isEmpty && others.count == messages.count)
        }
    }

    private func delete(_ message: SQSMessage) throws(SQSError) {
        let deleted = try client.deleteMessageBatch(
            queueURL: queueURL, entries: [DeleteEntry(id: "reply", receiptHandle: message.receiptHandle)])
        if let failure = deleted.failed.first {
            throw SQSError(kind: .server, code: failure.code, message: "could not delete the reply: \(failure.message)")
        }
    }
}

/// How long to wait before the next receive after one that found only others' replies: doubling from
/// `first` up to `limit`; back to no wait after an empty receive or one with a reply to this question.
public struct OthersBackoff: Sendable, Equatable {
    public var first: TimeInterval = 0.25
    public var limit: TimeInterval = 4
    public private(set) var current: TimeInterval = 0

    public init(first: TimeInterval = 0.25, limit: TimeInterval = 4) {
        self.first = first
        self.limit = limit
    }

    /// The wait before the next receive.
    public mutating func next(receivedOnlyOthers: Bool) -> TimeInterval {
        current = receivedOnlyOthers ? min(limit, current == 0 ? first : current * 2) : 0
        return current
    }
}
