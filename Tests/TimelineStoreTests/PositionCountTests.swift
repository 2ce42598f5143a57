import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// `countNewer`: a row's position, exact below a limit and the limit at it and past it, for the whole
/// timeline (read from the order index's ranges) and for filtered lists.
@Suite("TimelineStore position count")
struct PositionCountTests {
    /// Keys to count from: each row's, and keys between rows (one seq more or less: ties broken by seq),
    /// before the newest and after the oldest.
    static func keys(_ rows: [TimelineRow]) -> [RowKey] {
        var keys: [RowKey] = []
        for row in rows {
            keys.append(row.key)
            keys.append(RowKey(timestampMicros: row.key.timestampMicros, seq: row.key.seq + 1))
            keys.append(RowKey(timestampMicros: row.key.timestampMicros, seq: row.key.seq - 1))
        }
        return keys + [RowKey(timestampMicros: .max, seq: .max), RowKey(timestampMicros: .min, seq: .min)]
    }

    /// Every key against every limit around its position and around the list's size.
    static func expectPositions(_ store: TimelineStore, _ query: TimelineQuery) throws {
        let rows = try store.allRows(query)
        #expect(rows.count > 10)
        for key in keys(rows) {
            let position = rows.filter { $0.key > key }.count
            #expect(try store.countNewer(than: key, matching: query) == position)
            let limits = Set([0, 1, 2, position - 1, position, position + 1, rows.count - 1, rows.count, rows.count + 1, 10_000])
            for limit in limits where limit >= 0 {
                #expect(try store.countNewer(than: key, matching: query, upTo: limit) == min(position, limit),
                        "key \(key) limit \(limit) of \(rows.count) \(query)")
            }
        }
    }

    @Test func theWholeTimelineCountsExactlyUpToTheLimit() throws {
        let fixture = try StoreFixture()
        try ReadingTests.populate(fixture.store)
        try Self.expectPositions(fixture.store, TimelineQuery())
    }

    @Test func tiesOfTimestampsAreOrderedBySeq() throws {
        let fixture = try StoreFixture()
        // 30 tasks on one timestamp and 10 on the next: positions among them come from seq alone.
        let events = (0..<40).map { makeEvent("e\($0)", task: "task-\($0)", second: $0 < 30 ? 5 : 6) }
        try fixture.store.ingestEvents(events)
        let rows = try fixture.store.allRows()
        #expect(rows.count == 40)
        #expect(Set(rows.prefix(10).map(\.key.timestampMicros)).count == 1)
        for (index, row) in rows.enumerated() {
            #expect(try fixture.store.countNewer(than: row.key, matching: TimelineQuery(), upTo: 20) == min(index, 20))
        }
        try Self.expectPositions(fixture.store, TimelineQuery())
    }

    @Test func filteredListsCountExactlyUpToTheLimit() throws {
        let fixture = try StoreFixture()
        try ReadingTests.populate(fixture.store)
        for query in [TimelineQuery(statuses: [.error, .warning]), TimelineQuery(agents: ["agent-3"]),
                      TimelineQuery(terms: ["deploy"]), TimelineQuery(terms: ["straße"])] {
            try Self.expectPositions(fixture.store, query)
        }
    }

    @Test func anEmptyTimelineCountsNothing() throws {
        let fixture = try StoreFixture()
        let key = RowKey(timestampMicros: 0, seq: 0)
        #expect(try fixture.store.countNewer(than: key, matching: TimelineQuery()) == 0)
        #expect(try fixture.store.countNewer(than: key, matching: TimelineQuery(), upTo: 10) == 0)
    }

    /// The whole timeline's count reads index ranges (no test per entry, no sort): what keeps a reload far
    /// down as cheap on a large timeline as on a small one.
    @Test func theWholeTimelinesCountReadsRangesOfTheOrderIndex() throws {
        let fixture = try StoreFixture()
        try ReadingTests.populate(fixture.store)
        func plan(_ sql: String) throws -> [String] {
            let statement = try fixture.store.db.prepare("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try statement.step() == .row { details.append(statement.string(3)) }
            return details
        }
        let skip = try plan(TimelineStore.keyOfRowAfter)
        #expect(skip == ["SCAN timeline USING COVERING INDEX timeline_order"])
        let count = try plan(TimelineStore.rowsNewer).filter { $0.hasPrefix("SEARCH") || $0.hasPrefix("SCAN timeline") }
        #expect(count == ["SEARCH timeline USING COVERING INDEX timeline_order (ts_us>?)",
                          "SEARCH timeline USING COVERING INDEX timeline_order (ts_us=? AND seq>?)"])
    }
}
