import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("Backup")
struct BackupTests {
    /// A valid event as an agent would publish it (`second` after a fixed time), parsed as the poller does.
    static func published(_ id: String, task: String, second: Int, status: String = "info", extra: String = "") -> Event {
        let raw = #"{"id":"\#(id)","agent_id":"agent-1","task_id":"\#(task)","title":"event \#(id)","status":"\#(status)","#
            + #""timestamp":"2027-01-15T08:00:\#(String(format: "%02d", second))Z"\#(extra)}"#
        guard case .success(let event) = EventParser.parse(raw) else { fatalError("invalid test event \(raw)") }
        return event
    }

    /// As the poller stores it; `orderedAt` stands for a claim that ran too far ahead of its arrival.
    static func fromQueue(_ event: Event, sent: Int64, count: Int, orderedAt: Int64? = nil) -> IngestItem {
        var event = event
        event.delivery = QueueDelivery(sentMicros: sent, receiveCount: count)
        event.timestampMicros = orderedAt ?? event.timestampMicros
        return .event(event, messageID: "msg-\(event.id)")
    }

    /// A store holding one of everything a backup carries.
    static func populated() throws -> StoreFixture {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingest([
            fromQueue(published("a1", task: "A", second: 10, status: "in_progress"), sent: 1_000, count: 1),
            fromQueue(published("b1", task: "B", second: 20, status: "error"), sent: 2_000, count: 4,
                      orderedAt: published("b1", task: "B", second: 15).timestampMicros),
            .event(published("c1", task: "C", second: 5, extra: #","unknown":{"kept":[1,2]}"#), messageID: nil),
            .rejected(rawBytes: [0xFF, 0x1B, 0x5B, 0x32, 0x4A, 0x00], messageID: "msg-bad", reason: "not UTF-8"),
        ])
        try store.markAllRead()
        // Equal timestamps: the later arrival wins, which a restore must reproduce.
        try store.ingest([.event(published("a2", task: "A", second: 30, status: "success"), messageID: nil),
                          .event(published("a3", task: "A", second: 30, status: "warning"), messageID: nil),
                          .event(published("c0", task: "C", second: 1), messageID: nil),
                          .event(published("d1", task: "D", second: 40, status: "needs_input"), messageID: nil)])
        try store.ingest([.rejected(rawBody: "not json", messageID: nil, reason: "not JSON")])
        let d1 = try #require(store.allRows().first { $0.taskID == "D" })
        try store.markRead(taskID: "D", seq: d1.seq)
        try store.setMark(taskID: "B", marked: true)
        try store.setMark(taskID: "A", marked: true)
        try store.record(ReplyRecord(
            reply: Reply(id: "r1", inReplyTo: "d1", taskID: "D", agentID: "agent-1", answer: .action("deploy"),
                         from: "alice", timestampMicros: 5_000),
            label: "Deploy", destination: .queue("https://sqs.example/q"), delivery: .sending, updatedMicros: 5_000))
        try store.updateDelivery(replyID: "r1", .sent(detail: "mid-1"), atMicros: 6_000)
        try store.record(ReplyRecord(
            reply: Reply(id: "r2", inReplyTo: "d1", taskID: "D", agentID: "agent-1", answer: .text("wait \u{1B}[2J"),
                         from: "bob", timestampMicros: 7_000),
            label: nil, destination: .webhook("https://hooks.example/x"), delivery: .failed(reason: "HTTP 500"),
            updatedMicros: 8_000))
        return fixture
    }

    static func records(_ store: TimelineStore) throws -> [BackupRecord] {
        var out: [BackupRecord] = []
        try store.forEachBackupRecord { out.append($0) }
        return out
    }

    /// What the viewer shows of each task: the winning event, its facts, count and read state.
    static func view(_ store: TimelineStore) throws -> [String] {
        try store.allRows().map { row in
            "\(row.taskID) \(row.event.id) \(row.event.status.rawValue) at=\(row.event.timestampMicros) n=\(row.eventCount) unread=\(row.unread) "
                + "received=\(row.receivedMicros) delivery=\(String(describing: row.event.delivery))"
        }
    }

    @Test func aBackupRestoresEverythingIntoAnEmptyDatabase() throws {
        let source = try Self.populated()
        let records = try Self.records(source.store)
        #expect(records.map(\.kind) == ["event", "event", "event", "event", "event", "event", "event",
                                        "rejected", "rejected", "mark", "mark", "read", "read", "read", "read", "reply", "reply"])
        // Through the lines, as a file carries them.
        let decoded = try records.map { try BackupLine.decode(Array(BackupLine.encode($0).utf8.dropLast())) }
        #expect(decoded == records)

        let target = try StoreFixture()
        let counts = try target.store.restore(decoded)
        try target.store.flushSearchIndex()
        #expect(counts.events == 7 && counts.rejected == 2 && counts.marks == 2 && counts.readMarks == 4 && counts.replies == 2)
        #expect(try Self.records(target.store) == records)
        #expect(try Self.view(target.store) == Self.view(source.store))
        #expect(try target.store.row(taskID: "B")?.event.timestampMicros == Self.published("b1", task: "B", second: 15).timestampMicros)
        #expect(try target.store.allRows().map(\.unread) == [false, true, false, false])  // D, A (a3 won), B, C
        #expect(try target.store.history(taskID: "A", limit: 10).map(\.id) == source.store.history(taskID: "A", limit: 10).map(\.id))
        #expect(try target.store.rejected(limit: 10).map(\.rawBody) == source.store.rejected(limit: 10).map(\.rawBody))
        #expect(try target.store.replies(taskID: "D") == source.store.replies(taskID: "D"))
        #expect(try target.store.fleetCounts() == source.store.fleetCounts())
        #expect(try target.store.count(matching: TimelineQuery(terms: ["event a3"])) == 1)
    }

    @Test func restoringTwiceChangesNothing() throws {
        let source = try Self.populated()
        let records = try Self.records(source.store)
        let target = try StoreFixture()
        try target.store.restore(records)
        let once = try Self.records(target.store)
        let again = try target.store.restore(records)
        #expect(again == { var c = RestoreCounts(); c.duplicateEvents = 7; return c }())
        #expect(try Self.records(target.store) == once)
        #expect(try target.store.stats().events == 7 && target.store.stats().rejected == 2)
    }

    @Test func aBackupMergesIntoAnExistingDatabaseKeepingArrivalOrder() throws {
        let source = try Self.populated()
        let target = try StoreFixture()
        try target.store.ingest([.event(Self.published("a1", task: "A", second: 10), messageID: nil),
                                 .event(Self.published("z1", task: "Z", second: 50, status: "error"), messageID: nil)])
        try target.store.restore(Self.records(source.store))
        let arrived = try target.store.events(arrivedAfter: 0, limit: 100).map(\.event.id)
        #expect(arrived == ["a1", "z1", "b1", "c1", "a2", "a3", "c0", "d1"])
        // The target's own unread error stays unread; the backup's read marks apply to its tasks.
        let unread = try Dictionary(uniqueKeysWithValues: target.store.allRows().map { ($0.taskID, $0.unread) })
        #expect(unread == ["Z": true, "D": false, "A": true, "B": false, "C": false])
    }

    @Test func readStateFollowsTheWatermarkAndTheMarks() throws {
        let source = try Self.populated()
        let reads = try Self.records(source.store).compactMap { record -> String? in
            if case .read(let id) = record { id } else { nil }
        }
        // A, B and C are read up to the mark-all-read watermark (A's newer a2 and a3, and C's late c0, are not
        // read), D by its own mark.
        #expect(reads == ["a1", "b1", "c1", "d1"])
    }

    @Test func anEventThatNoLongerValidatesIsKeptAsRejected() throws {
        let target = try StoreFixture()
        let counts = try target.store.restore([.event(StoredEvent(rawJSON: #"{"id":"x"}"#, orderingMicros: 1, messageID: "m", receivedMicros: 9,
                                                                  delivery: nil))])
        #expect(counts.events == 0 && counts.rejected == 1)
        let rejected = try #require(target.store.rejected(limit: 1).first)
        #expect(rejected.rawBody == #"{"id":"x"}"# && rejected.messageID == "m" && rejected.receivedMicros == 9)
    }

    @Test func aReplyKeepsItsNewestOutcome() throws {
        let target = try StoreFixture()
        let base = StoredReply(id: "r", inReplyTo: "e", taskID: "T", agentID: "a", action: "ok", text: nil, sender: "me",
                               timestampMicros: 1, label: nil, destinationKind: "queue", destination: "q", state: "sending",
                               detail: nil, updatedMicros: 1)
        var sent = base
        (sent.state, sent.detail, sent.updatedMicros) = ("sent", "mid", 2)
        try target.store.restore([.reply(sent)])
        #expect(try target.store.restore([.reply(base)]).replies == 0)
        #expect(try target.store.reply(id: "r")?.delivery == .sent(detail: "mid"))
    }

    @Test func linesAreSafeToPrintAndKeepExactBytes() throws {
        let rejection = BackupRecord.rejected(StoredRejection(rawBytes: [0x1B, 0x5D, 0xFF, 0x0A], messageID: nil,
                                                              reason: "r \u{1B}", receivedMicros: 3))
        let line = BackupLine.encode(rejection)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" })
        #expect(try BackupLine.decode(Array(line.utf8.dropLast())) == rejection)
    }

    @Test(arguments: [
        (#"{"record":"what"}"#, "unknown record kind \"what\""),
        (#"{"record":"mark","task_id":"T"}"#, "\"marked_us\" is missing"),
        (#"{"record":"mark","task_id":7,"marked_us":1}"#, "\"task_id\" is not a string"),
        (#"{"record":"rejected","raw_base64":"%%","reason":"r","received_us":1}"#, "\"raw_base64\" is not base64"),
        ("[1]", "not a JSON object"),
    ])
    func malformedLinesSayWhy(line: String, reason: String) {
        #expect(throws: BackupLineError(reason)) { try BackupLine.decode(Array(line.utf8)) }
    }

    @Test func onlyTheExactHeaderStartsABackup() {
        #expect(BackupLine.header(of: Array(BackupLine.header.utf8.dropLast())) == .backup)
        #expect(BackupLine.header(of: Array(#"{"version":2,"format":"timeline-backup"}"#.utf8)) == .unsupportedVersion("2"))
        let event = #"{"id":"e","agent_id":"a","task_id":"t","title":"x","status":"info","timestamp":"2027-01-15T08:00:00Z","format":"timeline-backup","version":1}"#
        #expect(BackupLine.header(of: Array(event.utf8)) == .notBackup)
        #expect(BackupLine.header(of: Array("not json".utf8)) == .notBackup)
    }
}
