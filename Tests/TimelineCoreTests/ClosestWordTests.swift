import Testing
@testable import TimelineCore

/// "Did you mean": typos find their word, unrelated words find nothing.
@Suite struct ClosestWordTests {
    static let commands = ["tui", "poll", "drain", "publish", "doctor", "import", "list", "history", "rejected", "reply",
                           "ask", "setup", "config", "export", "prune", "mark", "status"]

    @Test(arguments: [("lsit", "list"), ("hsitory", "history"), ("doctr", "doctor"), ("stauts", "status"),
                      ("pol", "poll"), ("--limt", "--limit"), ("--endpont-url", "--endpoint-url")])
    func typosFindTheirWord(typed: String, meant: String) {
        #expect(ClosestWord.suggestion(for: typed, among: Self.commands + ["--limit", "--endpoint-url", "--json"]) == meant)
    }

    @Test func unrelatedWordsFindNothing() {
        #expect(ClosestWord.suggestion(for: "frobnicate", among: Self.commands) == nil)
        #expect(ClosestWord.suggestion(for: "xyz", among: Self.commands) == nil)
        #expect(ClosestWord.suggestion(for: "list", among: Self.commands) == nil, "a known word needs no suggestion")
    }

    @Test func distanceCountsASwapOfNeighboursAsOneEdit() {
        #expect(ClosestWord.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(ClosestWord.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(ClosestWord.editDistance(Array(""), Array("abc")) == 3)
    }
}
