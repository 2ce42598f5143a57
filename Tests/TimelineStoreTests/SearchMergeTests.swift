import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// Full-text segments are merged in small steps (by ingests that index rows and the background
/// `SearchMerger`) and by `flushSearchIndex` after a bulk import, never by FTS5's automerge inside a
/// commit; the number of segments stays bounded and searches find the same rows however the index was built.
@Suite("Search index merges")
struct SearchMergeTests {
    /// Segments of the full-text index (each one is searched on every full-text query).
    static func segments(_ store: TimelineStore) throws -> Int64 {
        try store.locked { try store.db.scalarInt("SELECT count(DISTINCT segid) FROM search_idx") }
    }

    /// A small batch: two new tasks and an update of an older one, searchable by a per-batch word.
    static func batch(_ n: Int) -> [Event] {
        [makeEvent("n\(n)a", task: "T\(n)a", second: Int64(n), title: "Deploy w\(n)x alpha", body: "canary ok"),
         makeEvent("n\(n)b", task: "T\(n)b", second: Int64(n), title: "Review w\(n)x beta"),
         makeEvent("n\(n)c", task: "T\(n / 2)a", second: Int64(n) + 1, title: "Deploy w\(n)x gamma")]
    }

    @Test func fts5AutomergeIsOffAndCrisismergeBoundsALevel() throws {
        let fixture = try StoreFixture()
        let config = try fixture.store.locked {
            try fixture.store.db.scalarString("SELECT group_concat(k || '=' || v, ',') FROM search_config WHERE k LIKE '%merge'")
        }
        #expect(config?.split(separator: ",").sorted() == ["automerge=0", "crisismerge=64"])
    }

    @Test func segmentsStayBoundedAfterManySmallBatches() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // Two new tasks a batch: past the backlog, batches index a share each, adding segments to merge.
        let batches = TimelineStore.searchIndexBacklog / 2 + 6 * TimelineStore.searchIndexRowsPerIngest
        for n in 0..<batches { try store.ingestEvents(Self.batch(n)) }
        let waiting = try store.searchIndexBacklog()
        #expect(waiting < 2 * batches - 5 * TimelineStore.searchIndexRowsPerIngest, "batches indexed rows")
        #expect(waiting <= TimelineStore.searchIndexBacklog, "batches kept the backlog bounded")
        // One segment per commit without merges (up to crisismerge's 64 per level); the merger gets them to
        // a handful. Waits for the background job, generously (no timing is asserted).
        let deadline = Date().addingTimeInterval(120)
        while try Self.segments(store) > 12 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try Self.segments(store) <= 12)
        // Searches still find exactly the current rows.
        for n in [0, 7, 150, 299] {
            let titles = Set(try store.allRows(TimelineQuery.parse("w\(n)x")).map(\.event.title))
            var expected: Set<String> = ["Review w\(n)x beta"]
            // Batches 2k and 2k+1 update task T(k)a: the later one wins, and tasks past the middle keep alpha.
            if n % 2 == 1 || n + 1 >= batches { expected.insert("Deploy w\(n)x gamma") }
            if n * 2 >= batches { expected.insert("Deploy w\(n)x alpha") }
            #expect(titles == expected, "w\(n)x")
        }
        #expect(try store.count(matching: TimelineQuery.parse("canary")) == batches - batches / 2)
        try store.locked { try store.db.execute("INSERT INTO search (search) VALUES ('integrity-check')") }
    }

    @Test func bulkImportFindsTheSameRowsAsSmallBatches() throws {
        let small = try StoreFixture()
        let bulk = try StoreFixture()
        let events = (0..<200).flatMap { Self.batch($0) }
        for n in stride(from: 0, to: events.count, by: 9) {
            try small.store.ingestEvents(Array(events[n..<min(n + 9, events.count)]))
        }
        for n in stride(from: 0, to: events.count, by: 250) {
            _ = try bulk.store.ingest(events[n..<min(n + 250, events.count)].map { .event($0, messageID: nil) },
                                      deferSearchIndex: true)
        }
        try bulk.store.flushSearchIndex()
        #expect(try bulk.store.searchIndexBacklog() == 0)
        #expect(try Self.segments(bulk.store) <= 12, "flushSearchIndex merged the import's segments")
        for text in ["deploy", "w1", "alpha -review", "canary", "beta w19x", "task:T3a", "zebra"] {
            let query = TimelineQuery.parse(text)
            #expect(try bulk.store.allRows(query).map(\.event.id) == small.store.allRows(query).map(\.event.id), "\(text)")
            #expect(try bulk.store.count(matching: query) == small.store.count(matching: query), "\(text)")
        }
        try bulk.store.locked { try bulk.store.db.execute("INSERT INTO search (search) VALUES ('integrity-check')") }
    }

    @Test func closingWhileTheMergerRunsLeavesAValidDatabase() throws {
        let fixture = try StoreFixture()
        let path = fixture.path
        do {
            let writer = try TimelineStore(path: path)
            for n in 0..<120 { try writer.ingestEvents(Self.batch(n)) }
        }   // closed at once: the merger may be mid-way (each step is its own transaction)
        let reopened = try TimelineStore(path: path)
        #expect(try reopened.locked { try reopened.db.scalarString("PRAGMA integrity_check") } == "ok")
        try reopened.locked { try reopened.db.execute("INSERT INTO search (search) VALUES ('integrity-check')") }
        #expect(try reopened.count(matching: TimelineQuery.parse("w119x")) == 3)   // beta, gamma (on T59a), alpha
        #expect(try reopened.count(matching: TimelineQuery()) == 240)
    }
}
