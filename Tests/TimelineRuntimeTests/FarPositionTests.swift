import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// `count` tasks in memory, newest first (T<count-1> … T0). Records the largest position count it was asked
/// for; an uncapped count (every row above a key) is recorded as `Int.max`.
private final class LongHistoryReader: TimelineReading, @unchecked Sendable {
    let rows: [TimelineRow]
    private(set) var largestPositionCount = 0
    init(count: Int) {
        rows = (0..<count).reversed().map { i in
            let ts = Int64(1_795_000_000_000_000) + Int64(i) * 1_000_000
            let event = Event(id: "e\(i)", agentID: "agent", taskID: "T\(i)", title: "task \(i)", body: "",
                              status: .info, category: nil, timestampMicros: ts, rawJSON: "{}")
            return TimelineRow(event: event, seq: Int64(i + 1), eventCount: 1, receivedMicros: ts)
        }
    }
    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        Array(rows.filter { key == nil || $0.key < key! }.prefix(limit))
    }
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        Array(rows.filter { $0.key > key }.suffix(limit))
    }
    func count(matching query: TimelineQuery) throws -> Int { rows.count }
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        largestPositionCount = .max
        return rows.filter { $0.key > key }.count
    }
    func countNewer(than key: RowKey, matching query: TimelineQuery, upTo limit: Int) throws -> Int {
        largestPositionCount = max(largestPositionCount, limit)
        return min(rows.filter { $0.key > key }.count, limit)
    }
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { [.info: rows.count] }
    func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int { min(rows.count, limit) }
    func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] { [.info: rows.count] }
    func row(taskID: String) throws -> TimelineRow? { rows.first { $0.taskID == taskID } }
    func history(taskID: String, limit: Int) throws -> [Event] { [] }
    func changeToken() throws -> Int64 { 0 }
}

/// A window far down a long history finds its position without counting every row above it.
@Suite("Positions far down")
struct FarPositionTests {
    static let size = 25_000

    /// The window load around row `index` (0-based) after a store change: its position must be counted again.
    private func reload(around index: Int, _ reader: LongHistoryReader, formerPosition: Int?,
                        accuracy: PositionAccuracy = .exact) throws -> WindowResult {
        let row = reader.rows[index]
        var request = WindowRequest(generation: 1, query: TimelineQuery(), anchor: .row(taskID: row.taskID, key: row.key),
                                    above: 20, below: 20, anchorPosition: nil, keepSelection: true, targetLine: nil)
        request.formerPosition = formerPosition
        request.anchorAccuracy = accuracy
        guard case .windowLoaded(let result) = EffectExecutor.run(.loadWindow(request), on: reader) else {
            Issue.record("no window")
            throw PositionTestFailure()
        }
        return result
    }

    @Test func aReloadFarDownCountsNoFurtherThanTheCapAndKeepsTheFormerPositionAsAnEstimate() throws {
        let reader = LongHistoryReader(count: Self.size)
        let result = try reload(around: 20_000, reader, formerPosition: 19_990)
        #expect(reader.largestPositionCount == PositionAccuracy.positionCap)
        #expect(result.rows[result.anchorIndex].taskID == reader.rows[20_000].taskID)
        #expect(result.startPosition == 19_970)  // the former position less the 20 rows above the anchor
        #expect(result.positionAccuracy == .approximate)
    }

    @Test func withoutAFormerPositionAReloadFarDownSaysAtLeastTheCap() throws {
        let reader = LongHistoryReader(count: Self.size)
        let result = try reload(around: 20_000, reader, formerPosition: nil)
        #expect(reader.largestPositionCount == PositionAccuracy.positionCap)
        #expect(result.startPosition == PositionAccuracy.positionCap)
        #expect(result.positionAccuracy == .atLeast)
        // A former position that was itself a lower bound stays one.
        let bound = try reload(around: 20_000, reader, formerPosition: 15_000, accuracy: .atLeast)
        #expect(bound.startPosition == 14_980 && bound.positionAccuracy == .atLeast)
        // A former position below the cap is wrong (the count says more): the cap is the floor.
        let low = try reload(around: 20_000, reader, formerPosition: 30)
        #expect(low.startPosition == PositionAccuracy.positionCap && low.positionAccuracy == .approximate)
    }

    @Test func withinTheCapThePositionIsExact() throws {
        let reader = LongHistoryReader(count: Self.size)
        let result = try reload(around: 5_000, reader, formerPosition: 4_000)
        #expect(result.startPosition == 4_980)
        #expect(result.positionAccuracy == .exact)
        // Near the top the rows above are all in the window: position 0 without a count.
        let top = try reload(around: 10, reader, formerPosition: nil)
        #expect(top.startPosition == 0 && top.positionAccuracy == .exact && top.reachesNewest)
    }

    @Test func endWithoutExactCountsCountsNoFurtherThanTheCap() throws {
        let reader = LongHistoryReader(count: Self.size)
        let request = WindowRequest(generation: 1, query: TimelineQuery(), anchor: .oldest, above: 0, below: 20,
                                    anchorPosition: nil, keepSelection: false, targetLine: nil)
        guard case .windowLoaded(let result) = EffectExecutor.run(.loadWindow(request), on: reader) else {
            Issue.record("no window")
            return
        }
        #expect(result.rows.last?.taskID == "T0")
        #expect(result.startPosition == PositionAccuracy.positionCap - 20 && result.positionAccuracy == .atLeast)
        var known = request
        known.listTotal = Self.size
        guard case .windowLoaded(let exact) = EffectExecutor.run(.loadWindow(known), on: reader) else {
            Issue.record("no window")
            return
        }
        #expect(exact.startPosition == Self.size - 20 && exact.positionAccuracy == .exact)
    }

    @Test func theNewRowsAboveABrowsedListAreCountedUpToOnePastTheCap() throws {
        let reader = LongHistoryReader(count: Self.size)
        let request = CountsRequest(generation: 1, listQuery: TimelineQuery(), statusQuery: TimelineQuery(),
                                    matchQuery: nil, newerThan: reader.rows[20_000].key, cap: nil)
        guard case .countsLoaded(let result) = EffectExecutor.run(.loadCounts(request), on: reader) else {
            Issue.record("no counts")
            return
        }
        #expect(result.newCount == CountsRequest.firstCap + 1)
        #expect(reader.largestPositionCount == CountsRequest.firstCap + 1)
    }
}

private struct PositionTestFailure: Error {}
