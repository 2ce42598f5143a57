import Foundation
import TimelineCore

/// Sends replies so that none is lost: each is recorded before it is sent (a crash leaves it "not sent"),
/// then its outcome is stored. A resend keeps the reply id, so an agent that got the first one can tell.
public struct ReplyOutbox: Sendable {
    private let keeper: any ReplyKeeping & Sendable
    private let sender: ReplySender
    private let clock: @Sendable () -> Int64

    public init(keeper: any ReplyKeeping & Sendable, sender: ReplySender,
                clock: @escaping @Sendable () -> Int64 = { TimeFormat.nowMicros() }) {
        self.keeper = keeper
        self.sender = sender
        self.clock = clock
    }

    /// Records `record` as sending, delivers it and stores the outcome; returns the record as stored.
    /// A store failure before sending sends nothing (it is reported as the reason).
    public func send(_ record: ReplyRecord) -> ReplyRecord {
        var record = record
        record.delivery = .sending
        record.updatedMicros = clock()
        do {
            try keeper.record(record)
        } catch {
            record.delivery = .failed(reason: "not sent: the reply could not be stored (\(error))")
            return record
        }
        record.delivery = sender.deliver(record)
        record.updatedMicros = clock()
        // The reply went (or not) whatever happens here; a failed update leaves it shown as not sent.
        try? keeper.updateDelivery(replyID: record.reply.id, record.delivery, atMicros: record.updatedMicros)
        return record
    }

    /// Sends a stored reply again with the same id (for `R` and `timeline reply --resend`).
    public func resend(replyID: String) -> ReplyRecord? {
        guard let stored = try? keeper.reply(id: replyID) else { return nil }
        return send(stored)
    }
}
