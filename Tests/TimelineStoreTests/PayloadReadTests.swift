import CSQLite
import Foundation
import StrictJSON
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// Reads render each payload from the columns they decode anyway and the row's template
/// (`TimelineStore.templatedEvent(from:)`): the exact payload `tl_payload` gives, without SQL building it.
@Suite("TimelineStore payload reads")
struct PayloadReadTests {
    /// Payloads of every kind: escapes, non-ASCII, a literal (control bytes), fields the payload does not
    /// give, a template too long to share, every timestamp precision, progress, no category.
    private func variedEvents() throws -> [Event] {
        let parsed = try [
            #"{"id":"v1","agent_id":"a","task_id":"T1","title":"caf\u00e9 \"q\" \/","body":"l1\nl2\ttab","status":"in_progress","timestamp":"2026-01-01T00:00:00.5Z","progress":45}"#,
            #"{"id": "v2", "agent_id": "a", "task_id": "T2", "title": "日本 😀 \\", "status": "success", "category": "ops", "timestamp": "2026-01-01T00:00:01.000123Z", "x": [1, {"y": "z"}]}"#,
            #"{"id":"v3","agent_id":"a","task_id":"T3","title":"t","status":"error","timestamp":"2026-01-01T00:00:02Z","trace":"\#(String(repeating: "w", count: PayloadShapes.sharedTemplateLimit))"}"#,
            #"{"id":"v4","agent_id":"a\u0007b","task_id":"T4","title":"del \u007f","status":"warning","timestamp":"2026-01-01T00:00:03.250Z","progress":0.45}"#,
        ].map { try EventParser.parse($0).get() }
        let bare = Event(id: "v5", agentID: "a", taskID: "T5", title: "Title", body: "Body", status: .info, category: "c",
                         timestampMicros: 1_000_000, rawJSON: "{}")
        let literal = Event(id: "v6", agentID: "a", taskID: "T6", title: "x", status: .needsInput, timestampMicros: 2_000_000,
                            rawJSON: "\u{1}\u{1F}{\"id\":\"v6\"}")
        return parsed + [bare, literal]
    }

    /// Replaces `tl_payload` on the store's connection with one that fails: a read that still asks SQL
    /// to render a payload fails with it.
    private func disableSQLRendering(_ store: TimelineStore) throws {
        let rc = sqlite3_create_function_v2(store.db.handle, PayloadShapes.functionName, 10, SQLITE_UTF8, nil,
                                            { context, _, _ in sqlite3_result_error(context, "tl_payload called", -1) },
                                            nil, nil, nil)
        #expect(rc == SQLITE_OK)
    }

    @Test func rowsTaskRowsAndHistoriesRenderEveryPayloadExactlyWithoutSQLRendering() throws {
        let fixture = try StoreFixture()
        let events = try variedEvents()
        try fixture.store.ingestEvents(events)
        let exact = Dictionary(uniqueKeysWithValues: events.map { ($0.id, $0.rawJSON) })
        // The SQL function still gives the same payloads (exports, backups, the agents view use it).
        var rendered: [String: String] = [:]
        try fixture.store.forEachEvent(in: ExportSelection(), groupedByTask: false) { event, _ in rendered[event.id] = event.rawJSON }
        #expect(rendered == exact)

        try disableSQLRendering(fixture.store)
        let rows = try fixture.store.allRows()
        #expect(Dictionary(uniqueKeysWithValues: rows.map { ($0.event.id, $0.event.rawJSON) }) == exact)
        #expect(rows.map(\.event).sorted { $0.id < $1.id } == events.sorted { $0.id < $1.id })
        for event in events {
            #expect(try fixture.store.row(taskID: event.taskID)?.event == event)
            #expect(try fixture.store.history(taskID: event.taskID, limit: 5) == [event])
        }
        // A window read through the matches (a search) and one newer than a key render the same.
        #expect(try fixture.store.allRows(TimelineQuery(terms: ["café"])).map(\.event.rawJSON) == [exact["v1"]])
        let oldest = try #require(rows.last)
        #expect(try fixture.store.rows(matching: TimelineQuery(), newerThan: oldest.key, limit: 60).map(\.event)
                == Array(rows.map(\.event).dropLast()))
    }

    @Test func aTemplateThatDoesNotFitItsRowFailsTheReadAsTheSQLFunctionDoes() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([makeEvent("m1", task: "T1", second: 1)])
        // A row without a category whose template names one (never written by the store).
        try fixture.store.db.execute("""
            UPDATE events SET payload_shape = NULL, payload_template = '{"category":' || char(7) || '}' WHERE id = 'm1'
            """)
        func message(_ read: () throws -> Void) -> String? {
            do {
                try read()
                return nil
            } catch let error as SQLiteError {
                return error.message
            } catch {
                return "\(error)"
            }
        }
        let expected = "payload template does not fit its event"
        #expect(message { _ = try fixture.store.allRows() } == expected)
        #expect(message { _ = try fixture.store.history(taskID: "T1", limit: 5) } == expected)
        #expect(message { try fixture.store.forEachEvent(in: ExportSelection(), groupedByTask: false) { _, _ in } } == expected)
    }

    @Test func aRowWithoutTemplateReadsAnEmptyPayloadAsTheSQLFunctionDoes() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([makeEvent("m1", task: "T1", second: 1)])
        try fixture.store.db.execute("UPDATE events SET payload_shape = NULL, payload_template = NULL WHERE id = 'm1'")
        #expect(try fixture.store.allRows().map(\.event.rawJSON) == [""])
        var exported: [String] = []
        try fixture.store.forEachEvent(in: ExportSelection(), groupedByTask: false) { event, _ in exported.append(event.rawJSON) }
        #expect(exported == [""])
    }

    /// A payload rendered before is reused only for the very same template and values (bytes, not text
    /// that merely compares equal): a seq that now holds other values, or another template, is rendered anew.
    @Test func aRenderedPayloadIsReusedOnlyForTheSameTemplateAndValues() throws {
        let cache = RenderedPayloads()
        let values = PayloadValues(id: "e1", agentID: "a", taskID: "T1", title: "caf\u{E9}", body: "", status: "info",
                                   category: nil, timestampMicros: 1_000_000, progress: nil)
        let template = Array(#"{"id":\#u{1},"title":\#u{4},"x":1}"#.utf8)
        func payload(_ template: [UInt8]?, _ values: PayloadValues, seq: Int64 = 7) throws -> String {
            try template.map { t in try t.withUnsafeBufferPointer { try cache.payload(seq: seq, template: $0, values: values) } }
                ?? cache.payload(seq: seq, template: nil, values: values)
        }
        #expect(try payload(template, values) == #"{"id":"e1","title":"caf\#u{E9}","x":1}"#)
        #expect(try payload(template, values) == #"{"id":"e1","title":"caf\#u{E9}","x":1}"#)
        var decomposed = values
        decomposed.title = "cafe\u{301}"  // equal as Swift text, other bytes
        #expect(decomposed.title == values.title)
        #expect(Array(try payload(template, decomposed).utf8) == Array(#"{"id":"e1","title":"cafe\#u{301}","x":1}"#.utf8))
        var later = values
        later.progress = 5
        #expect(try payload(Array(#"{"id":\#u{1},"progress":\#u{8}}"#.utf8), later) == #"{"id":"e1","progress":5}"#)
        #expect(try payload(nil, values) == "")
        #expect(try payload(template, values, seq: 8) == #"{"id":"e1","title":"caf\#u{E9}","x":1}"#)
        // A template that does not fit is an error each time, never remembered as a payload.
        var noCategory = values
        noCategory.category = nil
        for _ in 0..<2 {
            #expect(throws: SQLiteError.self) { try payload(Array("{\"category\":\u{7}}".utf8), noCategory) }
        }
    }

    /// However small the payloads (an empty one counts no bytes), the cache keeps at most `entryLimit`.
    @Test func payloadsKeptAreBoundedInNumberToo() throws {
        let cache = RenderedPayloads()
        let values = PayloadValues(id: "e1", agentID: "a", taskID: "T1", title: "t", body: "", status: "info",
                                   category: nil, timestampMicros: 1_000_000, progress: nil)
        for seq in 0..<Int64(3 * RenderedPayloads.entryLimit) {
            #expect(try cache.payload(seq: seq, template: nil, values: values) == "")
            #expect(cache.count <= RenderedPayloads.entryLimit)
        }
        #expect(cache.count > 0)
    }

    /// Reads that reuse payloads still give each row its own: a row whose values change under the same seq
    /// (a file restored from a backup, another process's prune and ingest) reads its new payload.
    @Test func aReadAfterTheRowChangedGivesTheNewPayload() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([makeEvent("m1", task: "T1", second: 1, title: "first")])
        #expect(try fixture.store.allRows().map(\.event.title) == ["first"])
        let before = try #require(try fixture.store.allRows().first?.event.rawJSON)
        try fixture.store.db.execute("UPDATE events SET title = 'second' WHERE id = 'm1'")
        let after = try #require(try fixture.store.allRows().first?.event)
        #expect(after.title == "second" && after.rawJSON == before.replacingOccurrences(of: "first", with: "second"))
        #expect(try fixture.store.history(taskID: "T1", limit: 1).map(\.rawJSON) == [after.rawJSON])
    }

    /// The 8-bytes-at-a-time scan finds each escaped byte at every offset (and nothing else).
    @Test func theEscapeScanFindsEveryEscapedByteAtEveryOffset() {
        let escaped: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        for length in [0, 1, 7, 8, 9, 16, 23] {
            let filler = Array(repeating: UInt8(ascii: "a"), count: length)
            #expect(!filler.withUnsafeBufferPointer(PayloadTemplate.needsEscape))
            for offset in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var bytes = filler
                    bytes[offset] = byte
                    #expect(bytes.withUnsafeBufferPointer(PayloadTemplate.needsEscape) == escaped(byte),
                            "byte \(byte) at \(offset) of \(length)")
                }
            }
        }
        // Neighbours of the escaped bytes, and every UTF-8 lead and continuation byte, in every lane.
        let clean = Array("!#[]~ \u{80}é😀日本".utf8) + [0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x80, 0xFF]
        #expect(!clean.withUnsafeBufferPointer(PayloadTemplate.needsEscape))
    }

    @Test func quotedValuesAreWhatJSONWriterWrites() {
        let texts = ["", "plain", "a\"b", "back\\slash", "tab\tnew\nline", "del\u{7F}", "nul\u{0}", "é😀日本 long enough to scan",
                     String(repeating: "12345678", count: 5) + "\u{1}", "\u{2028}\u{2029}", String(repeating: "x", count: 1_000)]
        for text in texts {
            var fast: [UInt8] = []
            var writer: [UInt8] = []
            PayloadTemplate.appendQuoted(text, to: &fast)
            JSONWriter.appendQuoted(text, to: &writer)
            #expect(fast == writer, "\(text.debugDescription)")
        }
    }

    @Test func aReadOnlyConnectionKeepsTheReadSettingsAndTheFilesTokenizer() throws {
        let fixture = try StoreFixture()
        let reader = try fixture.secondConnection(readOnly: true)
        #expect(reader.searchTokenizer == fixture.store.searchTokenizer)
        #expect(try reader.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.readerPageCacheKiB))
        #expect(try reader.db.scalarInt("PRAGMA mmap_size") == 0)
        #expect(try reader.db.scalarInt("PRAGMA temp_store") == 1)
        // The writer's own settings.
        #expect(try fixture.store.db.scalarInt("PRAGMA synchronous") == 1)
        #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == Int64(TimelineStore.walFileLimitBytes))
        #expect(try fixture.store.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.pageCacheKiB))
    }

    @Test func aFileWhoseMetaNamesNoTokenizerIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.db")
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE events (x)")
        }
        for readOnly in [true, false] {
            #expect(throws: StoreError.notATimelineDatabase(path: path, tables: ["events", "meta"])) {
                _ = try TimelineStore(path: path, readOnly: readOnly)
            }
        }
    }
}
