import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

@Suite("Prune by copy")
struct PruneByCopyTests {
    static func micros(_ second: Int64) -> Int64 { PruneAndMarksTests.micros(second) }

    /// What does not add up in the file (nothing, in a consistent one): every timeline row's event exists
    /// and its count is its events', the kept per-status counts are the timeline's, the events table has its
    /// two indexes, and SQLite's own check passes.
    static func inconsistencies(_ store: TimelineStore) throws -> [String] {
        let checks: [(String, String)] = [
            ("rows without their event",
             "SELECT count(*) FROM timeline t WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.seq = t.seq)"),
            ("rows with a wrong count",
             "SELECT count(*) FROM timeline t WHERE event_count <> (SELECT count(*) FROM events e WHERE e.task_row = t.row_id)"),
            ("wrong status counts", """
                SELECT count(*) FROM (SELECT status, count(*) AS n FROM timeline GROUP BY status) c
                WHERE n <> coalesce((SELECT tasks FROM task_counts k WHERE k.status = c.status), 0)
                """),
            ("missing event indexes", "SELECT 1 - count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'events'"),
        ] + EventIDIndexTests.checks
        return try store.locked {
            var found: [String] = []
            for (name, sql) in checks {
                let value = try store.db.scalarInt(sql)
                if value != 0 { found.append("\(name): \(value)") }
            }
            let integrity = try store.db.scalarString("PRAGMA integrity_check")
            if integrity != "ok" { found.append("integrity: \(integrity ?? "nil")") }
            return found
        }
    }

    struct Interrupted: Error {}

    /// A prune stopped after any of its transactions (as by kill -9: the connection is gone, what was
    /// committed stays) leaves a consistent file, and the next prune finishes the job: what is left then is
    /// what one uninterrupted prune leaves.
    @Test(arguments: [false, true])
    func aPruneStoppedAfterAnyStepLeavesAConsistentFileThatTheNextPruneFinishes(copy: Bool) throws {
        let reference = try StoreFixture()
        try PruneBatchesTests.fill(reference.store)
        var steps = 0
        var counting = PruneBatchesTests.tiny(copy: copy)
        counting.afterEachBatch = { steps += 1 }
        _ = try reference.store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: false,
                                      batching: counting)
        let expected = try PruneBatchesTests.left(reference.store)
        #expect(steps > 10)
        for stop in 1..<steps {
            let directory = try TemporaryDirectory()
            let path = directory.file("timeline.db")
            do {
                let store = try TimelineStore(path: path)
                try PruneBatchesTests.fill(store)
                var done = 0
                var stopping = PruneBatchesTests.tiny(copy: copy)
                stopping.afterEachBatch = {
                    done += 1
                    if done == stop { throw Interrupted() }
                }
                #expect(throws: Interrupted.self) {
                    try store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: false,
                                    batching: stopping)
                }
            }
            let reopened = try TimelineStore(path: path)
            #expect(try Self.inconsistencies(reopened) == [], "stopped after step \(stop)")
            _ = try reopened.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: true,
                                   batching: PruneBatchesTests.tiny(copy: copy))
            #expect(try PruneBatchesTests.left(reopened) == expected, "stopped after step \(stop)")
            #expect(try Self.inconsistencies(reopened) == [], "stopped after step \(stop)")
            let leftBehind = try reopened.locked {
                try reopened.db.scalarInt(
                    "SELECT count(*) FROM sqlite_schema WHERE name IN ('events_prune_copy', 'events_pruned')")
            }
            #expect(leftBehind == 0, "stopped after step \(stop)")
        }
    }

    /// The copy follows the events table's own definition: a column the code does not know survives it,
    /// and the indexes are the same afterwards.
    @Test func aCopyKeepsColumnsItDoesNotKnow() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try PruneBatchesTests.fill(store)
        let indexes = """
            SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema
            WHERE tbl_name = 'events' AND type = 'index' ORDER BY name)
            """
        let before = try store.locked { () throws -> String? in
            try store.db.execute("ALTER TABLE events ADD COLUMN note TEXT; UPDATE events SET note = 'n' || seq")
            return try store.db.scalarString(indexes)
        }
        _ = try store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: true,
                            batching: PruneBatchesTests.tiny(copy: true))
        let after = try store.locked { () throws -> (String?, Int64, Int64) in
            (try store.db.scalarString(indexes),
             try store.db.scalarInt("SELECT count(*) FROM events WHERE note = 'n' || seq"),
             try store.db.scalarInt("SELECT count(*) FROM events"))
        }
        #expect(after.0 == before && after.1 == 10 && after.2 == 10)
        #expect(try Self.inconsistencies(store) == [])
    }

    /// With `reclaimSpace` the file itself shrinks and the WAL is emptied, whatever checkpoint runs beside.
    @Test func reclaimingShrinksTheFile() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents((0..<4_000).map {
            makeEvent("e\($0)", task: "t\($0 % 400)", second: Int64($0), body: String(repeating: "b", count: 500))
        })
        try fixture.store.checkpoint()
        let before = TimelineStore.fileSize(fixture.path)
        let report = try fixture.store.prune(olderThan: Self.micros(3_600), keepRunning: false, reclaimSpace: true)
        #expect(report.eventsDeleted == 3_600)
        #expect(TimelineStore.fileSize(fixture.path) < before / 2)
        #expect(TimelineStore.fileSize(fixture.path + "-wal") == 0)
        #expect(try Self.inconsistencies(fixture.store) == [])
    }

    /// The share is estimated from the arrival order: the old half of a history is about half.
    @Test func theSharePrunedIsEstimatedFromSamples() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents((0..<1_000).map { makeEvent("e\($0)", task: "t\($0 % 50)", second: Int64($0)) })
        let half = try fixture.store.estimatedPrunedShare(olderThan: Self.micros(500))
        #expect(abs(half - 0.5) < 0.02)
        #expect(try fixture.store.estimatedPrunedShare(olderThan: Self.micros(0)) == 0)
        #expect(try fixture.store.estimatedPrunedShare(olderThan: Self.micros(2_000)) == 1)
    }

    /// The default batching chooses the copy when most events go, the deletes when few do (both leave the
    /// same; the copy leaves no old table behind).
    @Test func theDefaultChoosesByTheSharePruned() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents((0..<200).map { makeEvent("e\($0)", task: "t\($0 % 10)", second: Int64($0)) })
        var copied = false
        var batching = PruneBatching()
        batching.afterEachBatch = {
            let copies = try fixture.store.locked {
                try fixture.store.db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'events_prune_copy'")
            }
            if copies > 0 { copied = true }
        }
        _ = try fixture.store.prune(olderThan: Self.micros(20), keepRunning: false, reclaimSpace: false, batching: batching)
        #expect(!copied)
        let report = try fixture.store.prune(olderThan: Self.micros(180), keepRunning: false, reclaimSpace: false,
                                             batching: batching)
        #expect(copied)
        #expect(report.eventsDeleted == 160)
        #expect(try fixture.store.stats().events == 20)
        #expect(try Self.inconsistencies(fixture.store) == [])
    }
}

extension PruneByCopyTests {
    /// Before a copy, whole tasks go `tasksWithoutEvents` per transaction, not `tasks` (which sizes the
    /// deletes that take each task's events too): each of those transactions rewrites pages all over the
    /// task-id index, so fewer, larger ones write far less.
    @Test func beforeACopyWholeTasksGoInLargerBatches() throws {
        func transactions(tasksWithoutEvents: Int) throws -> Int {
            let fixture = try StoreFixture()
            try PruneBatchesTests.fill(fixture.store)
            var batching = PruneBatchesTests.tiny(copy: true)
            batching.tasks = 1
            batching.tasksWithoutEvents = tasksWithoutEvents
            var count = 0
            batching.afterEachBatch = { count += 1 }
            let report = try fixture.store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: false,
                                                 batching: batching)
            #expect(report.tasksDeleted == 12)
            #expect(try Self.inconsistencies(fixture.store) == [])
            return count
        }
        // 12 tasks go whole: 13 transactions one at a time (the last finds none), 1 all at once.
        #expect(try transactions(tasksWithoutEvents: 1) - transactions(tasksWithoutEvents: 100) == 12)
    }

    /// A prune by copy runs with the larger page cache its batches need and gives the connection its own
    /// back; a prune that deletes (the daily retention's) keeps the connection's own throughout.
    @Test(arguments: [false, true])
    func aPruneByCopyRaisesThePageCacheWhileItRuns(copy: Bool) throws {
        let fixture = try StoreFixture()
        try PruneBatchesTests.fill(fixture.store)
        let usual = try fixture.store.pageCacheSetting()
        var during: Set<Int64> = []
        var batching = PruneBatchesTests.tiny(copy: copy)
        batching.afterEachBatch = { during.insert(try fixture.store.pageCacheSetting()) }
        _ = try fixture.store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: true, batching: batching)
        #expect(during.contains(TimelineStore.prunePageCacheKiB) == copy)
        #expect(usual != TimelineStore.prunePageCacheKiB)
        #expect(try fixture.store.pageCacheSetting() == usual)
    }

    /// A task that arrives while a prune copies takes a row id no event holds: the tasks pruned whole lose
    /// their rows before their events go (at the swap), and a new task with the greatest pruned id would
    /// show their events as its own until then.
    @Test func aTaskArrivingDuringTheCopyDoesNotInheritPrunedEvents() throws {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents([makeEvent("kept-0", task: "kept", second: 500)]
            + (0..<3).flatMap { task in (0..<3).map { makeEvent("old-\(task)-\($0)", task: "old-\(task)", second: 10 + Int64($0)) } })
        var histories: [[String]] = []
        var arrived = false
        var batching = PruneBatchesTests.tiny(copy: true)
        batching.afterEachBatch = {
            if !arrived, try !fixture.store.allRows().map(\.taskID).contains("old-2") {
                try fixture.store.ingestEvents([makeEvent("new-0", task: "new", second: 600)])
                arrived = true
            }
            if arrived { histories.append(try fixture.store.history(taskID: "new", limit: 100).map(\.id)) }
        }
        _ = try fixture.store.prune(olderThan: Self.micros(100), keepRunning: false, reclaimSpace: false, batching: batching)
        #expect(histories.count > 2)  // seen before the swap, not only after it
        #expect(histories.allSatisfy { $0 == ["new-0"] }, "\(histories)")
        #expect(try fixture.store.history(taskID: "new", limit: 100).map(\.id) == ["new-0"])
        #expect(try Self.inconsistencies(fixture.store) == [])
    }
}
