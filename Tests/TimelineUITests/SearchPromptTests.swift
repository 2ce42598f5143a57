import Testing
import TimelineCore
@testable import TimelineUI

/// A malformed query in the `/` prompt: the text stays visible (its end, where the cursor is), the reason
/// shows, and the header marks the active filter, at every size.
@Suite("Search prompt and filter marker")
struct SearchPromptTests {
    static func typed(_ text: String, width: Int, height: Int, enter: Bool = false) -> AppState {
        var d = SyncDriver(InMemoryTimeline(sampleRows()), width: width, height: height)
        d.press(.char("/"))
        d.type(text)
        if enter { d.press(.enter) }
        return d.state
    }

    @Test(arguments: [(120, 14), (80, 24), (20, 5)])
    func aMalformedQueryKeepsItsTextAndSaysWhy(size: (Int, Int)) {
        let (width, height) = size
        let s = Self.typed("since:abc", width: width, height: height)
        let screen = render(s, width: width, height: height)
        let prompt = screen.line(height - 1)
        #expect(prompt.hasPrefix("/since:abc "), "\(prompt)")
        let above = (max(1, height - 4)..<(height - 1)).map(screen.line).joined(separator: "\n")
        #expect(above.contains("⚠ since:abc is not"), "\(above)")
        #expect(screen.line(0).contains("filter:"), "\(screen.line(0))")
        GoldenScreen.check(screen, "\(width)x\(height)-search-malformed-prompt")
    }

    @Test(arguments: [(120, 14), (80, 24), (20, 5)])
    func theHeaderMarksTheKeptFilter(size: (Int, Int)) {
        let (width, height) = size
        let s = Self.typed("since:abc", width: width, height: height, enter: true)
        let screen = render(s, width: width, height: height)
        #expect(screen.line(0).contains("filter: since"), "\(screen.line(0))")
        if height > 5 { #expect(screen.text.contains("since:abc is not a time")) }
        GoldenScreen.check(screen, "\(width)x\(height)-search-malformed-kept")
    }

    @Test func aLongQueryShowsItsEndWhereTheCursorIs() {
        let long = "deploy agent:builder-1 category:infra -status:success since:15m needle-at-the-end"
        let s = Self.typed(long, width: 60, height: 10)
        let prompt = render(s, width: 60, height: 10).line(9)
        #expect(prompt.hasPrefix("/…"), "\(prompt)")
        #expect(prompt.contains("needle-at-the-end "), "\(prompt)")
    }

    @Test func aViewAndAHighlightAreMarkedToo() {
        var s = Self.typed("needle", width: 20, height: 5, enter: true)
        _ = reduce(&s, .key(.tab))
        #expect(render(s, width: 20, height: 5).line(0).contains("highlight:"))
        var wide = Self.typed("status:error", width: 80, height: 10, enter: true)
        wide.activeView = "errors"
        #expect(render(wide, width: 80, height: 10).line(0).contains("[errors] filter: status:error"))
    }
}

extension Screen {
    /// Every line, joined with newlines.
    var text: String { (0..<height).map(line).joined(separator: "\n") }
}

@Suite("Search history")
struct SearchHistoryTests {
    @Test func keptSearchesAreBoundedNewestLastWithoutRepeatsOrBlanks() {
        #expect(SearchHistory.bounded(["a", " ", "b", "a", ""]) == ["b", "a"])
        let many = (1...150).map { "q\($0)" }
        let kept = SearchHistory.bounded(many)
        #expect(kept.count == SearchHistory.limit && kept.first == "q51" && kept.last == "q150")
    }

    @Test func enterKeepsTheSearchAndArrowsWalkTheHistory() {
        var d = SyncDriver(InMemoryTimeline(sampleRows()), width: 80, height: 12)
        d.state.search.history = ["status:error", "deploy"]
        d.press(.char("/"))
        d.type("rev")
        d.press(.up)
        #expect(d.state.search.text == "deploy")
        d.press(.up, .up)
        #expect(d.state.search.text == "status:error", "stays at the oldest")
        d.press(.down)
        #expect(d.state.search.text == "deploy")
        d.press(.down)
        #expect(d.state.search.text == "rev", "back to what was typed")
        let effects = d.send(.key(.enter))
        #expect(effects == [.rememberSearches(["status:error", "deploy", "rev"])])
        d.press(.char("/"), .ctrl("u"))
        d.type("deploy")
        #expect(d.send(.key(.enter)) == [.rememberSearches(["status:error", "rev", "deploy"])], "a repeat moves to the end")
    }
}
