import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// Each payload is stored once (`PayloadColumns`): fields read back exactly, whatever the payload says.
@Suite("TimelineStore payload storage")
struct PayloadStorageTests {
    /// Bytes the companion columns hold (0 when every field is read from the payload).
    private func ownBytes(_ store: TimelineStore) throws -> Int64 {
        let sum = PayloadColumns.fields.map { "coalesce(length(CAST(\($0.own) AS BLOB)), 0)" }.joined(separator: " + ")
        return try store.db.scalarInt("SELECT coalesce(sum(\(sum)), 0) FROM events")
    }

    @Test func parsedEventsAreStoredOnlyAsTheirPayload() throws {
        let fixture = try StoreFixture()
        let payloads = [
            #"{"id":"p1","agent_id":"a","task_id":"T","title":"Deploy","body":"long body text","status":"info","category":"ops","timestamp":"2026-01-01T00:00:00Z","progress":5}"#,
            #"{"id":"p2","agent_id":"a","task_id":"T","title":"caf\u00e9 \"q\"","status":"success","timestamp":"2026-01-01T00:00:01Z","x":[1]}"#,
        ]
        let events = try payloads.map { try EventParser.parse($0).get() }
        #expect(try fixture.store.ingestEvents(events) == [.inserted, .replaced])
        #expect(try ownBytes(fixture.store) == 0)
        #expect(try fixture.store.history(taskID: "T", limit: 5) == events.reversed())
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["café"])) == 1)
    }

    @Test func fieldsThePayloadDoesNotGiveAreKeptExactly() throws {
        let fixture = try StoreFixture()
        // Built in code: the payload holds none of the fields, or other values, or a blank category.
        let bare = Event(id: "b1", agentID: "agent", taskID: "T1", title: "Title", body: "Body", status: .warning,
                         category: "cat", timestampMicros: 1_000_000, rawJSON: "{}")
        let differing = Event(id: "b2", agentID: "agent", taskID: "T2", title: "Real title", status: .info,
                              category: nil, timestampMicros: 2_000_000,
                              rawJSON: #"{"id":"b2","agent_id":"agent","task_id":"T2","title":5,"status":"info","category":"  "}"#)
        let parsed = try EventParser.parse(
            #"{"id":"b3","agent_id":"agent","task_id":"T3","title":"t","status":"info","category":" ","timestamp":"2026-01-01T00:00:00Z"}"#).get()
        #expect(parsed.category == nil)
        #expect(try fixture.store.ingestEvents([bare, differing, parsed]) == [.inserted, .inserted, .inserted])
        #expect(try fixture.store.history(taskID: "T1", limit: 1) == [bare])
        #expect(try fixture.store.history(taskID: "T2", limit: 1) == [differing])
        #expect(try fixture.store.history(taskID: "T3", limit: 1) == [parsed])
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["Real title"])) == 1)
        #expect(try fixture.store.ingestEvents([bare, differing]) == [.duplicate, .duplicate])
        #expect(try ownBytes(fixture.store) > 0)
    }

    /// A database written by the release before this layout (`Fixtures/version9.db`, made by
    /// `Fixtures/make-version9.sh` from `version9-input.jsonl`) migrates in place and keeps every event,
    /// rejected message, mark, read state and reply: its backup after the migration is the one that
    /// release wrote (`version9-backup.jsonl`).
    @Test func releaseDatabaseMigratesAndKeepsEverything() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
        let directory = try TemporaryDirectory()
        let path = directory.file("timeline.db")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("version9.db"), to: URL(fileURLWithPath: path))
        do {
            let before = try Database(path: path, mode: .readOnly)
            #expect(try before.userVersion() == 9)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        var lines = [BackupLine.header]
        try store.forEachBackupRecord { lines.append(BackupLine.encode($0)) }
        let expected = try String(contentsOf: fixtures.appendingPathComponent("version9-backup.jsonl"), encoding: .utf8)
        #expect(lines.joined() == expected)
        // The payload is stored once (the escaped title is kept as its own value only if SQLite decodes it
        // differently), and the timeline, search, history and marks read as before.
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE title_own IS NOT NULL OR body_own IS NOT NULL") <= 1)
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE category_own = X''") == 1)
        #expect(try store.allRows().map(\.event.id) == ["e6", "e5", "e2", "e3"])
        #expect(try store.count(matching: TimelineQuery(terms: ["café"])) == 1)
        #expect(try store.count(matching: TimelineQuery(terms: ["日本語"])) == 1)
        #expect(try store.history(taskID: "T2", limit: 5).map(\.id) == ["e3", "e4"])
        // The fields read back are the payload's (the stored time is the backup's ordering time).
        let stored = try store.history(taskID: "T2", limit: 1)[0]
        var reparsed = try EventParser.parse(stored.rawJSON).get()
        reparsed.timestampMicros = stored.timestampMicros
        #expect(stored == reparsed)
        #expect(stored.title == "café 😀 \"quoted\" tab\t" && stored.body == "line1\nline2" && stored.category == nil)
        #expect(try store.ingestEvents([try EventParser.parse(
            #"{"id":"e7","agent_id":"builder","task_id":"T1","title":"Deploy again","status":"info","timestamp":"2025-10-10T00:00:00Z"}"#).get()])
            == [.replaced])
        #expect(try store.stats().events == 7)
    }
}
