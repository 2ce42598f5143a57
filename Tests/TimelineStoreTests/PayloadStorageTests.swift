import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// Each event is stored as its columns plus a template of what they do not hold (`PayloadTemplate`,
/// `PayloadShapes`): fields and payloads read back exactly, whatever the payload says.
@Suite("TimelineStore payload storage")
struct PayloadStorageTests {
    /// (shared shapes, rows that keep their template themselves).
    private func layout(_ store: TimelineStore) throws -> (shapes: Int64, inline: Int64) {
        (try store.db.scalarInt("SELECT count(*) FROM payload_shapes"),
         try store.db.scalarInt("SELECT count(*) FROM events WHERE payload_template IS NOT NULL"))
    }

    @Test func parsedEventsOfOnePublisherShareOneShape() throws {
        let fixture = try StoreFixture()
        let payloads = (0..<20).map { index in
            #"{"id":"p\#(index)","agent_id":"a","task_id":"T\#(index % 3)","title":"Deploy \#(index)","body":"long body text","#
                + #""status":"info","category":"ops","timestamp":"2026-01-01T00:00:0\#(index % 10).\#(100 + index)Z","x":[1]}"#
        } + [#"{"id": "p20", "agent_id": "a", "task_id": "T9", "title": "caf\u00e9 \"q\"", "status": "success", "timestamp": "2026-01-01T00:00:01Z", "progress": 5}"#]
        let events = try payloads.map { try EventParser.parse($0).get() }
        try fixture.store.ingestEvents(events)
        #expect(try layout(fixture.store) == (2, 0))
        for task in ["T0", "T1", "T9"] {
            #expect(try fixture.store.history(taskID: task, limit: 50).sorted { $0.id < $1.id }
                    == events.filter { $0.taskID == task }.sorted { $0.id < $1.id })
        }
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["café"])) == 1)
        // The shared template holds no value of the row.
        #expect(try fixture.store.db.scalarInt("SELECT count(*) FROM payload_shapes WHERE template LIKE '%Deploy%' OR template LIKE '%2026%'") == 0)
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
        let controls = Event(id: "b4", agentID: "agent", taskID: "T4", title: "x", status: .info, timestampMicros: 3_000_000,
                             rawJSON: "\u{1}\u{1F}{\"id\":\"b4\"}")
        #expect(parsed.category == nil)
        #expect(try fixture.store.ingestEvents([bare, differing, parsed, controls]) == [.inserted, .inserted, .inserted, .inserted])
        #expect(try fixture.store.history(taskID: "T1", limit: 1) == [bare])
        #expect(try fixture.store.history(taskID: "T2", limit: 1) == [differing])
        #expect(try fixture.store.history(taskID: "T3", limit: 1) == [parsed])
        #expect(try fixture.store.history(taskID: "T4", limit: 1) == [controls])
        #expect(try fixture.store.count(matching: TimelineQuery(terms: ["Real title"])) == 1)
        #expect(try fixture.store.ingestEvents([bare, differing]) == [.duplicate, .duplicate])
    }

    /// A publisher whose every template differs (an unknown field's value per event): long templates and
    /// those past the shape limit stay in their rows, and every payload still reads back exactly.
    @Test func templatesThatAreNotSharedStayInTheirRows() throws {
        let fixture = try StoreFixture()
        let long = String(repeating: "v", count: PayloadShapes.sharedTemplateLimit)
        let count = Int(PayloadShapes.shapeLimit) + 50
        let events = try (0..<count).map { index in
            try EventParser.parse(#"{"id":"u\#(index)","agent_id":"a","task_id":"T\#(index % 7)","title":"t","status":"info","#
                + #""timestamp":"2026-01-01T00:00:00Z","trace":"\#(index)\#(index < 10 ? long : "")"}"#).get()
        }
        for start in stride(from: 0, to: count, by: 500) {
            try fixture.store.ingestEvents(Array(events[start..<min(start + 500, count)]))
        }
        #expect(try layout(fixture.store) == (PayloadShapes.shapeLimit, Int64(count) - PayloadShapes.shapeLimit))
        #expect(try fixture.store.db.scalarInt("SELECT count(*) FROM events WHERE length(payload_template) > \(PayloadShapes.sharedTemplateLimit)") == 10)
        var back: [String: String] = [:]
        try fixture.store.forEachEvent(in: ExportSelection(), groupedByTask: false) { event, _ in back[event.id] = event.rawJSON }
        #expect(back == Dictionary(uniqueKeysWithValues: events.map { ($0.id, $0.rawJSON) }))
    }

    /// A file of version 11 (payloads in `raw_json`) is rebuilt in place: every event, odd ones too, reads
    /// back the same, in the same arrival order, and ingest goes on.
    @Test func version11EventsAreRebuiltByteExact() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v11.db")
        let payloads = [
            #"{"id":"m1","agent_id":"a","task_id":"T1","title":"t","body":"b","status":"info","category":"c","timestamp":"2026-01-01T00:00:00.5Z","progress":1.0}"#,
            #"{"id": "m2", "agent_id": "a", "task_id": "T1", "title": "caf\u00e9 \ud83d\ude00 \/", "status": "in_progress", "timestamp": "2026-01-01T00:00:01.000123Z", "progress": 0.45, "u": {"v": [1, 2]}}"#,
            " {\"id\":\"m3\",\"agent_id\":\"a\",\"task_id\":\"T2\",\"title\":\"x\",\"status\":\"success\",\"timestamp\":\"2026-01-01T00:00:02Z\"}\n",
        ]
        var events = try payloads.map { try EventParser.parse($0).get() }
        events.append(Event(id: "m4", agentID: "a", taskID: "T3", title: "code", status: .warning, category: "k",
                            timestampMicros: 5, rawJSON: #"{"id":"other"}"#))
        let before: [Event]
        do {
            let store = try TimelineStore(path: path)
            try store.ingestEvents(events)
            before = try ["T1", "T2", "T3"].flatMap { try store.history(taskID: $0, limit: 10) }
            try store.db.restorePayloadColumnsLayout()
            try store.db.execute("PRAGMA user_version = 11")
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try ["T1", "T2", "T3"].flatMap { try store.history(taskID: $0, limit: 10) } == before)
        #expect(Set(before.map(\.rawJSON)) == Set(events.map(\.rawJSON)))
        #expect(try store.db.scalarInt("SELECT group_concat(seq) = '1,2,3,4' FROM (SELECT seq FROM events ORDER BY seq)") == 1)
        #expect(try store.ingestEvents([events[0], makeEvent("m5", task: "T2", second: 0)]) == [.duplicate, .replaced])
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
        // Each row names a shared template or keeps its own, and the timeline, search, history and marks
        // read as before.
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE (payload_shape IS NULL) = (payload_template IS NULL)") == 0)
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE payload_shape IS NOT NULL") > 0)
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE category IS NULL") >= 1)
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
