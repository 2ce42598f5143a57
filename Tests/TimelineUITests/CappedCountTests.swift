import Testing
import TimelineCore
@testable import TimelineUI

/// A new query whose first window cannot give its counts (a highlight, a status filter) is counted up to 1,000
/// first: what the screen shows meanwhile, and the exact count after.
@Suite("Capped counts")
struct CappedCountTests {
    /// A filter typed into the prompt; returns the counts effect it asked for.
    private func filtered(_ text: String, promptOpen: Bool) -> (AppState, CountsRequest?) {
        var s = loadedState(sampleRows(), width: 120, height: 14, total: 7)
        _ = reduce(&s, .key(.char("/")))
        var request: CountsRequest?
        for c in text {
            for case .loadCounts(let r) in reduce(&s, .key(.char(c))) { request = r }
        }
        if !promptOpen { _ = reduce(&s, .key(.enter)) }
        // The answer to the window load the filter asked for.
        let window = s.awaitedWindow ?? WindowRequest(generation: s.generation, query: s.listQuery, anchor: .newest, above: 0,
                                                      below: 100, anchorPosition: nil, keepSelection: false, targetLine: nil)
        _ = reduce(&s, .windowLoaded(WindowResult(request: window, rows: sampleRows().filter { QueryMatcher.matches($0, s.listQuery, nowMicros: fixedNow, marks: []) }, anchorIndex: 0,
                                                  startPosition: 0, reachesNewest: true, reachesOldest: false,
                                                  anchorMoved: false)))
        return (s, request)
    }

    @Test func aCappedCountShowsTheCapPlusAndTheExactCountFollows() throws {
        var (s, first) = filtered("deploy", promptOpen: true)
        var request = try #require(first)
        request.cap = CountsRequest.firstCap
        // More than the cap: shown as 1,000+ (per-status counts as lower bounds), and the exact counts asked for.
        let capped = CountsResult(request: request, total: 1_001,
                                  perStatus: [.info: 600, .error: 401], matchCount: nil, newCount: nil)
        #expect(!capped.isExact)
        let next = reduce(&s, .countsLoaded(capped))
        var exact = request
        exact.cap = nil
        #expect(next == [.loadCounts(exact)])
        #expect(s.counts.cap == CountsRequest.firstCap)
        GoldenScreen.check(render(s, width: 120, height: 14), "120x14-search-capped-count")
        #expect(render(s, width: 120, height: 14).line(13).contains("1,000+ matches"))
        #expect(render(s, width: 120, height: 14).line(0).contains("✗ 401+ error"))
        #expect(positionText(s) == "row 1 of 1,000+")
        // The exact counts replace them.
        _ = reduce(&s, .countsLoaded(CountsResult(request: exact, total: 123_456, perStatus: [.info: 100_000, .error: 23_456],
                                                  matchCount: nil, newCount: nil)))
        #expect(s.counts.cap == nil)
        #expect(render(s, width: 120, height: 14).line(13).contains("123,456 matches"))
        #expect(render(s, width: 120, height: 14).line(0).contains("✗ 23456 error"))
        // A recount of the same query (the store changed) stays exact.
        let recount = reduce(&s, .storeChanged).compactMap { effect -> CountsRequest? in
            if case .loadCounts(let r) = effect { return r }
            return nil
        }
        #expect(recount.map(\.cap) == [nil])
    }

    @Test func exactlyTheCapIsExactAndNeedsNoSecondCount() throws {
        var (s, first) = filtered("deploy", promptOpen: true)
        var request = try #require(first)
        request.cap = CountsRequest.firstCap
        let result = CountsResult(request: request, total: CountsRequest.firstCap, perStatus: [.info: CountsRequest.firstCap], matchCount: nil, newCount: nil)
        #expect(result.isExact)
        #expect(reduce(&s, .countsLoaded(result)) == [])
        #expect(s.counts.cap == nil)
        #expect(render(s, width: 120, height: 14).line(13).contains("1,000 matches"))
    }

    @Test func cappedCountsNeverReplaceExactOnesOfTheSameQuery() throws {
        var (s, first) = filtered("deploy", promptOpen: false)
        var exact = try #require(first)
        exact.cap = nil
        _ = reduce(&s, .countsLoaded(CountsResult(request: exact, total: 20_000, perStatus: [.info: 20_000], matchCount: nil, newCount: nil)))
        var late = exact
        late.cap = CountsRequest.firstCap
        let effects = reduce(&s, .countsLoaded(CountsResult(request: late, total: 10_001, perStatus: [.info: 10_001],
                                                            matchCount: nil, newCount: nil)))
        #expect(effects == [.loadCounts(exact)])
        #expect(s.counts.total == 20_000)
        #expect(s.counts.cap == nil)
        #expect(positionText(s) == "row 1 of 20,000")
    }
}
