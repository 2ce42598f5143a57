import Foundation
import TimelineCore

/// Replies the viewer sent (or failed to send), in the `replies` table (schema version 4).
extension TimelineStore: ReplyKeeping {
    private static let columns = """
        id, in_reply_to, task_id, agent_id, action, text, sender, ts_us, label, destination_kind, destination,
        state, detail, updated_us
        """

    public func record(_ record: ReplyRecord) throws {
        let (state, detail) = Self.stateColumns(record.delivery)
        let reply = record.reply
        var action: String?
        var text: String?
        switch reply.answer {
        case .action(let id): action = id
        case .text(let t): text = t
        }
        let kind: String
        switch record.destination {
        case .queue: kind = "queue"
        case .webhook: kind = "webhook"
        }
        try locked {
            let statement = try db.cached("""
                INSERT INTO replies (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET state = excluded.state, detail = excluded.detail,
                    updated_us = excluded.updated_us
                """)
            try statement.bind([
                .text(reply.id), .text(reply.inReplyTo), .text(reply.taskID), .text(reply.agentID),
                action.map(SQLiteValue.text) ?? .null, text.map(SQLiteValue.text) ?? .null, .text(reply.from),
                .integer(reply.timestampMicros), record.label.map(SQLiteValue.text) ?? .null, .text(kind),
                .text(record.destination.url), .text(state), detail.map(SQLiteValue.text) ?? .null,
                .integer(record.updatedMicros),
            ])
            try statement.run()
        }
    }

    public func updateDelivery(replyID: String, _ delivery: ReplyRecord.Delivery, atMicros: Int64) throws {
        let (state, detail) = Self.stateColumns(delivery)
        try locked {
            let statement = try db.cached("UPDATE replies SET state = ?, detail = ?, updated_us = ? WHERE id = ?")
            try statement.bind([.text(state), detail.map(SQLiteValue.text) ?? .null, .integer(atMicros), .text(replyID)])
            try statement.run()
        }
    }

    public func reply(id: String) throws -> ReplyRecord? {
        try read("SELECT \(Self.columns) FROM replies WHERE id = ?", [.text(id)]).first
    }

    public func replies(taskID: String) throws -> [ReplyRecord] {
        try read("SELECT \(Self.columns) FROM replies WHERE task_id = ? ORDER BY ts_us, seq", [.text(taskID)])
    }

    public func latestReplies(inReplyTo eventIDs: [String]) throws -> [String: ReplyRecord] {
        guard !eventIDs.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: eventIDs.count).joined(separator: ", ")
        let found = try read("SELECT \(Self.columns) FROM replies WHERE in_reply_to IN (\(marks)) ORDER BY ts_us, seq",
                             eventIDs.map(SQLiteValue.text))
        var out: [String: ReplyRecord] = [:]
        for record in found { out[record.reply.inReplyTo] = record }
        return out
    }

    private func read(_ sql: String, _ values: [SQLiteValue]) throws -> [ReplyRecord] {
        try locked {
            let s = try db.prepare(sql)
            try s.bind(values)
            var out: [ReplyRecord] = []
            while try s.step() == .row {
                let answer: Reply.Answer = s.isNull(4) ? .text(s.string(5)) : .action(s.string(4))
                let reply = Reply(id: s.string(0), inReplyTo: s.string(1), taskID: s.string(2), agentID: s.string(3),
                                  answer: answer, from: s.string(6), timestampMicros: s.int64(7))
                let destination: ReplyDestination = s.string(9) == "webhook" ? .webhook(s.string(10)) : .queue(s.string(10))
                let delivery: ReplyRecord.Delivery
                switch s.string(11) {
                case "sent": delivery = .sent(detail: s.optionalString(12) ?? "")
                case "failed": delivery = .failed(reason: s.optionalString(12) ?? "not sent")
                default: delivery = .sending
                }
                out.append(ReplyRecord(reply: reply, label: s.optionalString(8), destination: destination,
                                       delivery: delivery, updatedMicros: s.int64(13)))
            }
            return out
        }
    }

    private static func stateColumns(_ delivery: ReplyRecord.Delivery) -> (String, String?) {
        switch delivery {
        case .sending: ("sending", nil)
        case .sent(let detail): ("sent", detail)
        case .failed(let reason): ("failed", reason)
        }
    }
}
