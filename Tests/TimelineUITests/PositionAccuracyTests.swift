import Testing
import TimelineCore
@testable import TimelineUI

/// Far down a long history a reload estimates the position: what the header says, and when it is exact again.
@Suite("Estimated positions")
struct PositionAccuracyTests {
    /// `sampleRows()` as a window far down a list of `total` rows, its position known as `accuracy` says.
    private func farDown(start: Int, accuracy: PositionAccuracy, reachesOldest: Bool = false, total: Int = 500_000) -> AppState {
        var s = loadedState(sampleRows(), width: 120, height: 14, total: total)
        _ = reduce(&s, .key(.char("j")))  // BROWSE, on the second row
        let row = s.window[s.selected]
        let request = WindowRequest(generation: s.generation, query: s.listQuery, anchor: .row(taskID: row.taskID, key: row.key),
                                    above: 30, below: 30, anchorPosition: nil, keepSelection: true, targetLine: nil)
        s.awaitedWindow = request
        _ = reduce(&s, .windowLoaded(WindowResult(request: request, rows: sampleRows(), anchorIndex: 1, startPosition: start,
                                                  reachesNewest: false, reachesOldest: reachesOldest, anchorMoved: false,
                                                  positionAccuracy: accuracy)))
        return s
    }

    @Test func theHeaderSaysHowWellThePositionIsKnown() {
        #expect(positionText(farDown(start: 250_000, accuracy: .exact)) == "row 250,002 of 500,000")
        #expect(positionText(farDown(start: 250_000, accuracy: .approximate)) == "row ~250,002 of 500,000")
        #expect(positionText(farDown(start: 10_000, accuracy: .atLeast)) == "row 10,002+ of 500,000")
    }

    @Test func aReloadAfterAStoreChangeCarriesTheFormerPositionAndHowWellItIsKnown() throws {
        var s = farDown(start: 250_000, accuracy: .approximate)
        let effects = reduce(&s, .storeChanged)
        let request = try #require(effects.compactMap { effect -> WindowRequest? in
            if case .loadWindow(let r) = effect { return r } else { return nil }
        }.first)
        #expect(request.anchorPosition == nil)
        #expect(request.formerPosition == 250_001)
        #expect(request.anchorAccuracy == .approximate)
        // A page move keeps the estimate: the position is carried, not counted.
        var moved = farDown(start: 250_000, accuracy: .approximate)
        _ = reduce(&moved, .key(.char("j")))
        #expect(positionText(moved) == "row ~250,003 of 500,000")
    }

    @Test func rowsThatReachTheOldestTakeTheirPositionFromTheExactTotal() {
        let s = farDown(start: 10_000, accuracy: .atLeast, reachesOldest: true)
        #expect(s.positionAccuracy == .exact)
        #expect(s.windowStart == 500_000 - sampleRows().count)
        #expect(positionText(s) == "row 499,995 of 500,000")
    }

    @Test func moreNewRowsThanTheCapShowAsTheCapPlus() {
        var s = farDown(start: 250_000, accuracy: .exact)
        s.counts.newSinceBrowse = CountsRequest.firstCap + 1
        #expect(render(s, width: 120, height: 14).line(13).contains("↑ 1,000+ new"))
        s.counts.newSinceBrowse = 42
        #expect(render(s, width: 120, height: 14).line(13).contains("↑ 42 new"))
    }
}
