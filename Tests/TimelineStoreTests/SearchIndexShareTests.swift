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
}
