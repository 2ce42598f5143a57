import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

@Suite("Prune by copy leaves what deletion leaves")
struct PruneByCopySameTablesTests {
    /// Every row of every table of the file (but the full-text index's own tables, whose layout depends on
    /// how it was written), as text, table by table in a stable order; the id index's two levels as one.
    static func tables(_ store: TimelineStore) throws -> [String: [String]] {
        try store.locked {
            let names = try store.db.prepare("""
                SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                    AND name NOT LIKE 'search%' ORDER BY name
                """)
            var tables: [String] = []
            while try names.step() == .row { tables.append(names.string(0)) }
            var dump: [String: [String]] = [:]
            for table in tables {
                let quoted = EventsTableShape.quoted(table)
                let columns = try store.db.prepare("SELECT name FROM pragma_table_xinfo(?1) ORDER BY cid")
                try columns.bind(table, at: 1)
                var names: [String] = []
                while try columns.step() == .row { names.append("quote(\(EventsTableShape.quoted(columns.string(0))))") }
                let rows = try store.db.prepare("SELECT \(names.joined(separator: " || '|' || ")) FROM \(quoted)")
                var lines: [String] = []
                while try rows.step() == .row { lines.append(rows.string(0)) }
                dump[table] = lines.sorted()
            }
            // Which level of the id index holds a key depends on the order of the writes: both levels as one.
            dump["event_ids (both levels)"] = ((dump.removeValue(forKey: "event_ids") ?? [])
                                               + (dump.removeValue(forKey: "event_ids_recent") ?? [])).sorted()
            return dump
        }
    }

    /// Both ways of pruning (and both with the space reclaimed) leave the same rows in every table:
    /// events, timeline rows and their counts, marks, read marks, replies, rejected messages, kept counts,
    /// payload templates; and searches find the same.
    @Test(arguments: [false, true])
    func aCopyPruneLeavesEveryTableAsADeletePruneDoes(keepRunning: Bool) throws {
        let source = try StoreFixture()
        let filled = source.store
        try PruneBatchesTests.fill(filled)
        try filled.ingestEvents([makeEvent("odd-shape", task: "mixed-4", second: 502, category: "deploy", progress: 40)])
        for task in ["old-5", "mixed-2", "mixed-3"] {
            let row = try filled.row(taskID: task)
            try filled.markRead(taskID: task, seq: try #require(row).seq)
        }
        try filled.locked {
            try filled.db.execute("""
                INSERT INTO replies (id, in_reply_to, task_id, agent_id, action, sender, ts_us, destination_kind,
                                     destination, state, updated_us)
                VALUES ('r-old', 'old-6-3', 'old-6', 'agent-1', 'ok', 'me', 1, 'queue', 'q', 'sent', 1),
                       ('r-mixed', 'mixed-0-3', 'mixed-0', 'agent-1', 'ok', 'me', 2, 'queue', 'q', 'sent', 2)
                """)
        }
        try filled.checkpoint()
        var dumps: [[String: [String]]] = []
        var found: [PruneBatchesTests.Left] = []
        for copy in [false, true] {
            // The same file both times (arrival and mark times included).
            let directory = try TemporaryDirectory()
            let path = directory.file("timeline.db")
            try FileManager.default.copyItem(atPath: source.path, toPath: path)
            let store = try TimelineStore(path: path)
            let report = try store.prune(olderThan: PruneBatchesTests.micros(100), keepRunning: keepRunning,
                                         reclaimSpace: true, batching: PruneBatchesTests.tiny(copy: copy))
            #expect(report.eventsDeleted > 0)
            dumps.append(try Self.tables(store))
            found.append(try PruneBatchesTests.left(store))
            #expect(try PruneByCopyTests.inconsistencies(store) == [])
        }
        #expect(dumps[0].keys.sorted() == dumps[1].keys.sorted())
        for table in dumps[0].keys.sorted() {
            #expect(dumps[1][table] == dumps[0][table], "table \(table)")
        }
        #expect(dumps[0]["events"]?.count ?? 0 > 0 && dumps[0]["timeline"]?.count ?? 0 > 0)
        #expect(found[0] == found[1])
    }
}
