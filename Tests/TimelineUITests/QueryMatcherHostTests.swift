import Testing
import TimelineCore
@testable import TimelineUI

/// `host:` and `project:` in the in-memory matcher (highlighting) agree with the store's rules.
@Suite struct QueryMatcherHostTests {
    static let rows = [
        makeRow("claude:1", "Edit", agent: "claude@Laptop-2", category: "web", secondsAgo: 1, seq: 3),
        makeRow("T-2", "Deploy", agent: "laptop@box", category: "ops", secondsAgo: 2, seq: 2),
        makeRow("T-3", "Plain", agent: "builder", secondsAgo: 3, seq: 1),
    ]

    func matching(_ text: String) -> [String] {
        Self.rows.filter { QueryMatcher.matches($0, TimelineQuery.parse(text), nowMicros: fixedNow) }.map(\.taskID)
    }

    @Test func hostMatchesOnlyTheTextAfterTheAt() {
        #expect(matching("host:laptop") == ["claude:1"])
        #expect(matching("-host:laptop") == ["T-2", "T-3"])
        #expect(matching("host:box") == ["T-2"])
        #expect(matching("project:web") == ["claude:1"])
        #expect(matching("-project:web") == ["T-2", "T-3"])
    }
}
