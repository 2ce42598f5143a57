import Foundation
import Testing
import TimelineCore
@testable import TimelineStore
import TestSupport

/// The two-level id index: which keys a commit moves, that a key is found in either level, and that
/// every write path keeps both levels equal to the events' own keys.
@Suite struct EventIDIndexTests {
    /// Checks (name, SQL counting what is wrong) that the id index holds exactly one entry per event.
    static let checks: [(String, String)] = [
        ("id entries without their event", """
            SELECT count(*) FROM (SELECT id_key, seq FROM event_ids UNION ALL SELECT id_key, seq FROM event_ids_recent
                                  EXCEPT SELECT id_key, seq FROM events)
            """),
        ("events without an id entry", """
            SELECT count(*) FROM (SELECT id_key, seq FROM events
                                  EXCEPT SELECT id_key, seq FROM event_ids EXCEPT SELECT id_key, seq FROM event_ids_recent)
            """),
        ("id entries in both levels", """
            SELECT count(*) FROM (SELECT id_key, seq FROM event_ids INTERSECT SELECT id_key, seq FROM event_ids_recent)
            """),
    ]

    static func problems(_ db: Database) throws -> [String] {
        try checks.compactMap { name, sql in
            let value = try db.scalarInt(sql)
            return value == 0 ? nil : "\(name): \(value)"
        }
    }

    static let part = Int64(1) << 44  // 2^64 / cycleEvents

    @Test func aCommitMovesTheSliceItsSeqsStandFor() {
        let cycle = EventIDIndex.cycleEvents
        #expect(cycle == 1 << 20)
        // The first cycle moves nothing: the recent level holds every key of a file that small.
        #expect(EventIDIndex.slice(afterSeq: 0, lastSeq: 1).isEmpty)
        #expect(EventIDIndex.slice(afterSeq: 0, lastSeq: cycle).isEmpty)
        #expect(EventIDIndex.slice(afterSeq: cycle + 5, lastSeq: cycle + 5).isEmpty)
        #expect(EventIDIndex.slice(afterSeq: cycle, lastSeq: cycle + 1) == [Int64.min...(Int64.min + Self.part - 1)])
        #expect(EventIDIndex.slice(afterSeq: cycle - 9, lastSeq: cycle + 1) == [Int64.min...(Int64.min + Self.part - 1)])
        #expect(EventIDIndex.slice(afterSeq: cycle + 3, lastSeq: cycle + 5)
                == [(Int64.min + 3 * Self.part)...(Int64.min + 5 * Self.part - 1)])
        // Across the end of a sweep: the last parts and the first ones.
        #expect(EventIDIndex.slice(afterSeq: 2 * cycle - 2, lastSeq: 2 * cycle + 1)
                == [(Int64.max - 2 * Self.part + 1)...Int64.max, Int64.min...(Int64.min + Self.part - 1)])
        #expect(EventIDIndex.slice(afterSeq: 2 * cycle - 2, lastSeq: 2 * cycle)
                == [(Int64.max - 2 * Self.part + 1)...Int64.max])
        // A whole cycle or more: every key.
        #expect(EventIDIndex.slice(afterSeq: cycle + 7, lastSeq: 2 * cycle + 7) == [Int64.min...Int64.max])
        #expect(EventIDIndex.slice(afterSeq: 0, lastSeq: 3 * cycle) == [Int64.min...Int64.max])
    }

    /// Consecutive commits of any sizes sweep each key exactly once per `cycleEvents` events.
    @Test func consecutiveCommitsSweepEveryKeyOncePerCycle() {
        let cycle = EventIDIndex.cycleEvents
        var generator = SplitMix(seed: 11)
        var seq: Int64 = cycle + 12_345
        let end = seq + cycle
        var covered: [ClosedRange<Int64>] = []
        while seq < end {
            let next = min(end, seq + Int64(generator.next(90_000)) + 1)
            covered += EventIDIndex.slice(afterSeq: seq, lastSeq: next)
            seq = next
        }
        let sorted = covered.sorted { $0.lowerBound < $1.lowerBound }
        #expect(sorted.first?.lowerBound == Int64.min && sorted.last?.upperBound == Int64.max)
        for (before, after) in zip(sorted, sorted.dropFirst()) {
            #expect(before.upperBound &+ 1 == after.lowerBound)
        }
    }

    /// A batch moves the recent keys of its slice, and only those, to the lower level; a key is found as a
    /// duplicate in either level.
    @Test func aKeyIsFoundInEitherLevel() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try Self.startAfterTheFirstCycle(store)
        // Ids whose keys fall in the first three parts of the sweep.
        let early = Self.ids(count: 2) { $0 < Int64.min + 3 * Self.part }
        let late = Self.ids(count: 2) { $0 >= Int64.min + 4 * Self.part }
        let events = (early + late).enumerated().map { makeEvent($1, task: "T\($0)", second: Int64($0)) }
        // Seqs cycle + 1 ... cycle + 4: the slice is the first four parts; the early keys move, the late ones
        // (and the first cycle's key) stay recent.
        #expect(try store.ingestEvents(events) == [.inserted, .inserted, .inserted, .inserted])
        let levels = try store.locked { () throws -> (Int64, Int64) in
            (try store.db.scalarInt("SELECT count(*) FROM event_ids"),
             try store.db.scalarInt("SELECT count(*) FROM event_ids_recent"))
        }
        let lowerKeys = Set(early.map(EventIDKey.key))
        #expect(levels == (2, 3))
        #expect(try Set(store.locked { try Self.keys(in: "event_ids", store.db) }) == lowerKeys)
        // Each is a duplicate now, wherever its key is.
        #expect(try store.ingestEvents(events) == [.duplicate, .duplicate, .duplicate, .duplicate])
        try store.locked { try EventIDIndex.move([Int64.min...Int64.max], in: store.db) }
        #expect(try store.locked { try store.db.scalarInt("SELECT count(*) FROM event_ids_recent") } == 0)
        #expect(try store.ingestEvents(events) == [.duplicate, .duplicate, .duplicate, .duplicate])
        #expect(try store.stats().events == 5)
        #expect(try store.locked { try Self.problems(store.db) } == [])
    }

    /// `storedKeys` finds the keys of either level among many, the extreme keys too (they travel as JSON
    /// numbers), and nothing else; a key given twice is found once.
    @Test func storedKeysFindsTheKeysOfBothLevelsAndNoOthers() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.locked {
            let db = store.db
            #expect(try EventIDIndex.storedKeys(among: [], in: db) == [])
            try db.execute("""
                INSERT INTO event_ids (id_key, seq) VALUES (\(Int64.min), 1), (-5, 2);
                INSERT INTO event_ids_recent (id_key, seq) VALUES (\(Int64.max), 3), (7, 4), (7, 5);
                """)
            let absent = (0..<2_000).map { Int64($0) * 1_000_003 + 11 }
            let asked = (absent + [Int64.min, -5, 7, 7, Int64.max]).sorted()
            #expect(try EventIDIndex.storedKeys(among: asked, in: db) == [Int64.min, -5, 7, Int64.max])
        }
    }

    /// A restore finds the events its read marks name in either level: restored into an empty file (the
    /// keys recent), and again into a file whose keys were all moved down (every record a duplicate).
    @Test func aRestoredReadMarkFindsItsEventInEitherLevel() throws {
        let source = try BackupTests.populated()
        var records: [BackupRecord] = []
        try source.store.forEachBackupRecord { records.append($0) }
        let reads = records.filter { if case .read = $0 { true } else { false } }.count
        #expect(reads > 0)
        let target = try StoreFixture()
        let first = try target.store.restore(records)
        #expect(first.readMarks == reads)
        try target.store.locked {
            try target.store.db.execute("DELETE FROM read_marks")
            try EventIDIndex.move([Int64.min...Int64.max], in: target.store.db)
            #expect(try target.store.db.scalarInt("SELECT count(*) FROM event_ids_recent") == 0)
        }
        let second = try target.store.restore(records)
        #expect(second.readMarks == reads)
        #expect(try target.store.stats().events == source.store.stats().events)
        #expect(try target.store.locked { try Self.problems(target.store.db) } == [])
    }

    /// A file of version 14 (one `events_id_key` index) gets both levels made from its events, and the index
    /// goes; duplicates are found after.
    @Test func version14FileMigratesToTwoLevels() throws {
        let fixture = try StoreFixture()
        let events = (0..<50).map { makeEvent("m-\($0)", task: "T\($0 % 7)", second: Int64($0)) }
        try fixture.store.ingestEvents(events)
        try fixture.store.locked {
            try fixture.store.db.execute("""
                DROP TABLE event_ids; DROP TABLE event_ids_recent;
                CREATE INDEX events_id_key ON events (id_key);
                PRAGMA user_version = 14;
                """)
        }
        let store = try TimelineStore(path: fixture.path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.db.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'events_id_key'") == 0)
        #expect(try store.db.scalarInt("SELECT count(*) FROM event_ids") == 50)
        #expect(try Self.problems(store.db) == [])
        #expect(try store.ingestEvents(Array(events.prefix(3))) == [.duplicate, .duplicate, .duplicate])
        #expect(try store.ingestEvents([makeEvent("m-new", task: "T1", second: 99)]) == [.replaced])
        #expect(try Self.problems(store.db) == [])
    }

    /// Deleting old events and whole tasks takes their entries from both levels.
    @Test(arguments: [false, true])
    func aPruneTakesTheEntriesOfItsEvents(copy: Bool) throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try PruneBatchesTests.fill(store)
        // Half the keys in the lower level, half recent, before the prune.
        try store.locked { try EventIDIndex.move([Int64.min...(-1)], in: store.db) }
        let before = try store.stats().events
        _ = try store.prune(olderThan: PruneByCopyTests.micros(100), keepRunning: false, reclaimSpace: false,
                            batching: PruneBatchesTests.tiny(copy: copy))
        let after = try store.stats().events
        #expect(after < before)
        let entries = try store.locked {
            try store.db.scalarInt("SELECT (SELECT count(*) FROM event_ids) + (SELECT count(*) FROM event_ids_recent)")
        }
        #expect(entries == Int64(after))
        #expect(try store.locked { try Self.problems(store.db) } == [])
    }

    /// Gives the store one event whose seq is the last of the first cycle, so the next commits move slices.
    private static func startAfterTheFirstCycle(_ store: TimelineStore) throws {
        try store.ingestEvents([makeEvent("first-cycle", task: "F", second: 0)])
        let cycle = EventIDIndex.cycleEvents
        try store.locked {
            try store.db.execute("""
                UPDATE events SET seq = \(cycle) WHERE seq = 1;
                UPDATE timeline SET seq = \(cycle) WHERE seq = 1;
                UPDATE timeline SET indexed_seq = \(cycle) WHERE indexed_seq = 1;
                UPDATE event_ids_recent SET seq = \(cycle) WHERE seq = 1;
                """)
            #expect(try problems(store.db) == [])
        }
    }

    /// `count` ids whose keys satisfy `wanted`.
    private static func ids(count: Int, where wanted: (Int64) -> Bool) -> [String] {
        var found: [String] = []
        var candidate = 0
        while found.count < count {
            let id = "id-\(candidate)"
            if wanted(EventIDKey.key(id)) { found.append(id) }
            candidate += 1
        }
        return found
    }

    private static func keys(in table: String, _ db: Database) throws -> [Int64] {
        let statement = try db.prepare("SELECT id_key FROM \(table)")
        var keys: [Int64] = []
        while try statement.step() == .row { keys.append(statement.int64(0)) }
        return keys
    }
}
