import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// What one ingest pays for the full-text index (`searchIndexShare`): a small batch indexes at most
/// `searchIndexRowsPerIngest` waiting rows or takes one merge step, never both; back-to-back small batches
/// keep fewer than `searchIndexBacklog` rows waiting; searches find waiting rows all along.
@Suite("Search index share of one ingest")
struct SearchIndexShareTests {
    static let share = TimelineStore.searchIndexRowsPerIngest
    static let backlogLimit = TimelineStore.searchIndexBacklog
    static let mergeEvery = TimelineStore.searchRowsPerMergeStep

    /// Ten new tasks, each searchable by its own word `w<n>x<i>`.
    static func smallBatch(_ n: Int) -> [Event] {
        (0..<10).map { makeEvent("s\(n)-\($0)", task: "S\(n)-\($0)", second: Int64(n), title: "Build w\(n)x\($0)") }
    }

    @Test func aSmallBatchIndexesAtMostItsShareOfALargeBacklog() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // What an interrupted import leaves: more rows waiting for the index than the backlog limit.
        let waiting = Self.backlogLimit + 2 * Self.share
        let old = (0..<waiting).map { makeEvent("o\($0)", task: "O\($0)", second: 1, title: "Old zq\($0)qz") }
        _ = try store.ingest(old.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        #expect(try store.searchIndexBacklog() == waiting)

        try store.ingestEvents(Self.smallBatch(0))
        #expect(try store.searchIndexBacklog() == waiting + 10 - Self.share)
        // Indexed and waiting rows are found alike.
        for n in [0, Self.share - 1, waiting - 1] {
            #expect(try store.allRows(TimelineQuery.parse("zq\(n)qz")).map(\.event.id) == ["o\(n)"])
        }
        #expect(try store.allRows(TimelineQuery.parse("w0x3")).map(\.event.id) == ["s0-3"])
        #expect(try store.count(matching: TimelineQuery.parse("old")) == waiting)
    }

    @Test func aLargeBatchIndexesAllOfItsOwnRows() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let size = Self.backlogLimit + Self.share
        try store.ingestEvents((0..<size).map { makeEvent("l\($0)", task: "L\($0)", second: 1, title: "Large \($0)") })
        #expect(try store.searchIndexBacklog() == 0)
    }

    @Test func backToBackSmallBatchesKeepTheBacklogBoundedAndPayOneShareEach() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        var backlog = 0
        var indexings = 0
        var mergeSteps = 0
        for n in 0..<(3 * Self.backlogLimit / 10) {
            let sinceMergeBefore = store.searchRowsIndexedSinceMerge
            try store.ingestEvents(Self.smallBatch(n))
            let after = try store.searchIndexBacklog()
            let indexed = backlog + 10 - after
            #expect(after < Self.backlogLimit, "batch \(n) left \(after) rows waiting")
            #expect(indexed <= Self.share, "batch \(n) indexed \(indexed) rows")
            if indexed > 0 {
                indexings += 1
                // No merge step in a small batch that indexed.
                #expect(store.searchRowsIndexedSinceMerge == sinceMergeBefore + indexed, "batch \(n)")
            } else if store.searchRowsIndexedSinceMerge < sinceMergeBefore {
                mergeSteps += 1
                #expect(sinceMergeBefore >= Self.mergeEvery, "batch \(n) merged after \(sinceMergeBefore) rows")
            }
            backlog = after
        }
        #expect(indexings >= 2 * (Self.backlogLimit / Self.share))
        #expect(mergeSteps >= 1)
        // Every batch's rows are found, indexed or waiting.
        for n in [0, 29, 44, 89] {
            #expect(try store.allRows(TimelineQuery.parse("w\(n)x7")).map(\.event.id) == ["s\(n)-7"], "w\(n)x7")
        }
        try store.locked { try store.db.execute("INSERT INTO search (search) VALUES ('integrity-check')") }
    }

    /// Settled rows are counted only once this connection's ingests could have filled the room the last
    /// count left (a batch of n events leaves at most n rows waiting), and indexed as soon as they reach
    /// the backlog, as if counted at every ingest.
    @Test func settledRowsAreCountedOnlyWhenTheyCouldHaveReachedTheBacklog() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.ingestEvents(Self.smallBatch(0))
        #expect(store.settledRoomLeft == Self.backlogLimit - 10, "the first ingest counts its own 10 rows")
        try store.ingestEvents(Self.smallBatch(1))
        #expect(store.settledRoomLeft == Self.backlogLimit - 20, "no count: 1,990 rows of room were left")
        var batches = 2
        while try store.searchIndexBacklog() == 10 * batches {
            try store.ingestEvents(Self.smallBatch(batches))
            batches += 1
            #expect(batches <= Self.backlogLimit / 10 + 1)
        }
        #expect(batches == Self.backlogLimit / 10, "indexed by the batch that made the backlog full")
        #expect(try store.searchIndexBacklog() == Self.backlogLimit - Self.share)
        // A bulk write leaves rows waiting without a share: the next ingest counts them.
        _ = try store.ingest([.event(makeEvent("b1", task: "B1", second: 3, title: "Bulk"), messageID: nil)],
                             deferSearchIndex: true)
        #expect(store.settledRoomLeft == 0)
    }

    /// Rows of tasks in progress wait beside the settled rows' backlog, which alone decides the indexing
    /// while fewer than `searchIndexBacklogInProgress` of them wait; settled rows are indexed first.
    @Test func rowsInProgressWaitWhileSettledRowsAreIndexed() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let running = Self.backlogLimit + 3 * Self.share
        let inProgress = (0..<running).map {
            makeEvent("r\($0)", task: "R\($0)", second: 1, status: .inProgress, title: "Running rq\($0)qr")
        }
        for batch in stride(from: 0, to: running, by: 10) {
            try store.ingestEvents(Array(inProgress[batch..<min(batch + 10, running)]))
        }
        #expect(try store.searchIndexBacklog() == running, "no row in progress was indexed")

        // Settled rows up to their backlog: the next small batch indexes a share of them, none in progress.
        let settled = (0..<Self.backlogLimit).map { makeEvent("d\($0)", task: "D\($0)", second: 2, status: .success) }
        _ = try store.ingest(settled.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        try store.ingestEvents(Self.smallBatch(0))
        #expect(try store.searchIndexBacklog() == running + Self.backlogLimit + 10 - Self.share)
        let indexedStatuses = try store.locked {
            try store.db.scalarInt("SELECT count(*) FROM timeline WHERE indexed_seq IS seq AND status = 'in_progress'")
        }
        #expect(indexedStatuses == 0)
        #expect(try store.allRows(TimelineQuery.parse("rq7qr")).map(\.event.id) == ["r7"])
    }

    /// Once `mostRowsWaiting` rows wait (fewer than `searchIndexBacklog` of them settled), small batches
    /// index rows in progress.
    @Test func rowsInProgressAreIndexedPastTheirOwnBound() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let running = TimelineStore.mostRowsWaiting
        let inProgress = (0..<running).map { makeEvent("r\($0)", task: "R\($0)", second: 1, status: .inProgress) }
        _ = try store.ingest(inProgress.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        try store.ingestEvents([makeEvent("n", task: "N", second: 2, status: .inProgress, title: "next one")])
        #expect(try store.searchIndexBacklog() == running + 1 - Self.share)
        #expect(try store.allRows(TimelineQuery.parse("next one")).map(\.event.id) == ["n"])
        try store.locked { try store.db.execute("INSERT INTO search (search) VALUES ('integrity-check')") }
    }

    /// While fewer than `mostRowsWaiting` rows wait, ingests count them once every `waitingRowsCountEvery`:
    /// a bulk write beside them is noticed within that many ingests, which then index until fewer wait.
    @Test func waitingRowsAreCountedOnceEveryFewIngests() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        func running(_ id: String) -> Event { makeEvent(id, task: id, second: 1, status: .inProgress) }
        try store.ingestEvents([running("first")])
        let bulk = (0..<TimelineStore.mostRowsWaiting + 2 * Self.share).map { running("b\($0)") }
        _ = try store.ingest(bulk.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        var waiting = bulk.count + 1
        for n in 1..<TimelineStore.waitingRowsCountEvery {
            try store.ingestEvents([running("n\(n)")])
            waiting += 1
            #expect(try store.searchIndexBacklog() == waiting, "ingest \(n) did not count")
        }
        // The count finds them: each ingest indexes a share until fewer wait; the next ingests leave them.
        for n in 0..<5 {
            try store.ingestEvents([running("d\(n)")])
            waiting += n < 3 ? 1 - Self.share : 1
            #expect(try store.searchIndexBacklog() == waiting, "ingest \(n) after the count")
        }
        #expect(waiting < TimelineStore.mostRowsWaiting)
    }

    /// A file of version 15 (one index of every waiting row) gets the settled rows' own index; its waiting
    /// rows stay waiting and are found by class, the settled ones through their index.
    @Test func version15FileFindsSettledWaitingRowsThroughTheirOwnIndex() throws {
        let fixture = try StoreFixture()
        let events = (0..<40).map {
            makeEvent("v\($0)", task: "V\($0)", second: 1, status: $0 % 4 == 0 ? .success : .inProgress, title: "old vq\($0)")
        }
        _ = try fixture.store.ingest(events.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        try fixture.store.locked {
            try fixture.store.db.execute("DROP INDEX timeline_unindexed_settled; PRAGMA user_version = 15;")
        }
        let store = try TimelineStore(path: fixture.path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        let plan = try store.locked { () -> String in
            let explain = try store.db.cached("""
                EXPLAIN QUERY PLAN SELECT row_id FROM timeline
                WHERE indexed_seq IS NOT seq AND \(SearchIndexer.WaitingClass.settled.statusCondition)
                """)
            defer { explain.reset() }
            var details: [String] = []
            while try explain.step() == .row { details.append(explain.string(3)) }
            return details.joined(separator: "; ")
        }
        #expect(plan.contains("timeline_unindexed_settled"), "\(plan)")
        #expect(try store.searchIndexBacklog() == 40)
        let indexer = SearchIndexer(db: store.db)
        #expect(try store.locked { try indexer.backlog(atLeast: 10, of: .settled) })
        #expect(try store.locked { try !indexer.backlog(atLeast: 11, of: .settled) })
        #expect(try store.locked { try indexer.indexWaitingRows(limit: 100, of: .inProgress) } == 30)
        #expect(try store.locked { try indexer.backlog(atLeast: 10, of: .settled) })
        #expect(try store.allRows(TimelineQuery.parse("vq9")).map(\.event.id) == ["v9"])
        #expect(try store.allRows(TimelineQuery.parse("vq8")).map(\.event.id) == ["v8"])
        #expect(try store.locked { try indexer.indexWaitingRows(limit: 100, of: .settled) } == 10)
        #expect(try store.searchIndexBacklog() == 0)
    }
}
