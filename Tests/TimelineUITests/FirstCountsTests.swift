import Testing
import TimelineCore
@testable import TimelineUI

/// A new filter's first counts come from the screenful its window load reads; the exact counts follow.
@Suite("First counts from the first screenful")
struct FirstCountsTests {
    private let width = 120, height = 14

    /// The window load and the counts the last key typed into the `/` prompt asked for.
    private func type(_ text: String, into s: inout AppState) throws -> (WindowRequest, CountsRequest) {
        var window: WindowRequest?, counts: CountsRequest?
        for c in text {
            for effect in reduce(&s, .key(.char(c))) {
                if case .loadWindow(let r) = effect { window = r }
                if case .loadCounts(let r) = effect { counts = r }
            }
        }
        return (try #require(window), try #require(counts))
    }

    private func prompt(_ s: AppState) -> String { render(s, width: width, height: height).line(height - 1) }
    private func header(_ s: AppState) -> String { render(s, width: width, height: height).line(0) }

    /// `n` deploy rows, newest first, alternating info and error.
    private func deployRows(_ n: Int) -> [TimelineRow] {
        (0..<n).map { (i: Int) -> TimelineRow in
            let status: Status = i % 2 == 0 ? .info : .error
            return makeRow("D-\(i)", "deploy \(i)", status: status, secondsAgo: Int64(i) + 1, seq: 1_000 - Int64(i))
        }
    }

    private func answer(_ request: WindowRequest, rows: [TimelineRow], reachesOldest: Bool) -> Input {
        .windowLoaded(WindowResult(request: request, rows: rows, anchorIndex: 0, startPosition: 0, reachesNewest: true,
                                   reachesOldest: reachesOldest, anchorMoved: false))
    }

    private func opened() -> AppState {
        var s = loadedState(sampleRows(), width: width, height: height, total: 7)
        _ = reduce(&s, .key(.char("/")))
        return s
    }

    @Test func aFilterReadsItsFirstCountsFromItsWindowAndAsksForTheExactOnes() throws {
        var s = opened()
        let (window, counts) = try type("deploy", into: &s)
        #expect(window.countsFirst)
        #expect(window.anchor == .newest)
        #expect(counts.cap == nil)
        // Until the window answers, the prompt shows no count of the new query.
        #expect(s.search.matchCount == nil)
        #expect(!prompt(s).contains("match"))
    }

    @Test func fewerMatchesThanAScreenAreCountedExactly() throws {
        var s = opened()
        let (window, _) = try type("deploy", into: &s)
        _ = reduce(&s, answer(window, rows: deployRows(3), reachesOldest: true))
        #expect(s.counts.generation == s.generation)
        #expect(s.counts.cap == nil)
        #expect(s.search.matchCount == 3)
        #expect(prompt(s).contains("3 matches"))
        #expect(header(s).contains("● 2 info"))
        #expect(header(s).contains("✗ 1 error"))
        #expect(positionText(s) == "row 1 of 3")
    }

    @Test func moreMatchesThanAScreenShowAsMoreThanTheRowsRead() throws {
        var s = opened()
        let (window, counts) = try type("deploy", into: &s)
        let rows = deployRows(window.below)
        _ = reduce(&s, answer(window, rows: rows, reachesOldest: false))
        let read = rows.count
        #expect(s.counts.cap == read)
        #expect(s.search.matchCount == read + 1)
        #expect(prompt(s).contains("\(read)+ matches"))
        #expect(positionText(s) == "row 1 of \(read)+")
        // Per-status counts of the rows read are lower bounds.
        #expect(header(s).contains("✗ \(read / 2)+ error"))
        // The exact counts replace them.
        _ = reduce(&s, .countsLoaded(CountsResult(request: counts, total: 123_456, perStatus: [.info: 100_000, .error: 23_456],
                                                  matchCount: nil, newCount: nil)))
        #expect(s.counts.cap == nil)
        #expect(prompt(s).contains("123,456 matches"))
        #expect(header(s).contains("✗ 23456 error"))
        #expect(positionText(s) == "row 1 of 123,456")
    }

    @Test func exactCountsThatArriveFirstAreKept() throws {
        var s = opened()
        let (window, counts) = try type("deploy", into: &s)
        _ = reduce(&s, .countsLoaded(CountsResult(request: counts, total: 5_000, perStatus: [.info: 5_000],
                                                  matchCount: nil, newCount: nil)))
        _ = reduce(&s, answer(window, rows: deployRows(window.below), reachesOldest: false))
        #expect(s.counts.cap == nil)
        #expect(prompt(s).contains("5,000 matches"))
    }

    @Test func aNewerQuerySupersedesTheFirstCountsOfTheOlderOne() throws {
        var s = opened()
        let (older, olderCounts) = try type("deploy", into: &s)
        let (newer, _) = try type(" 1", into: &s)
        // The older query's window and exact counts land after the newer query was typed: neither is shown.
        _ = reduce(&s, answer(older, rows: deployRows(older.below), reachesOldest: false))
        _ = reduce(&s, .countsLoaded(CountsResult(request: olderCounts, total: 9_999, perStatus: [.info: 9_999],
                                                  matchCount: nil, newCount: nil)))
        #expect(s.counts.generation != s.generation)
        #expect(s.search.matchCount == nil)
        #expect(!prompt(s).contains("match"))
        // The newer query's own window gives its counts.
        _ = reduce(&s, answer(newer, rows: deployRows(2), reachesOldest: true))
        #expect(s.search.matchCount == 2)
        #expect(prompt(s).contains("2 matches"))
    }

    @Test func aHighlightOrAStatusFilteredQueryIsCountedCappedFirst() throws {
        var highlight = opened()
        _ = reduce(&highlight, .key(.tab))
        let (window, counts) = try type("deploy", into: &highlight)
        #expect(!window.countsFirst)
        #expect(counts.cap == CountsRequest.firstCap)
        // The header counts every status; a status qualifier narrows the list only.
        var status = opened()
        let (statusWindow, statusCounts) = try type("status:error deploy", into: &status)
        #expect(statusWindow.countsFirst == false)
        #expect(statusCounts.cap == CountsRequest.firstCap)
    }
}
