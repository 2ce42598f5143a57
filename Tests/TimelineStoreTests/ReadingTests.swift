import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("TimelineStore reading")
struct ReadingTests {
    /// 120 tasks, several events each, arriving out of order, with ties on timestamps.
    static func populate(_ store: TimelineStore) throws {
        var events: [Event] = []
        let statuses = Status.allCases
        for task in 0..<120 {
            for step in 0..<3 {
                // Timestamps collide across tasks (task % 40) so ordering must fall back to seq.
                let second = Int64((task % 40) * 10 + step)
                events.append(makeEvent("e\(task)-\(step)", task: "task-\(task)", second: second,
                                        status: statuses[(task + step) % statuses.count],
                                        title: step == 2 ? "Deploy Build #\(task)" : "step \(step)",
                                        body: task % 7 == 0 ? "Ünïcode Straße body for \(task)" : "plain",
                                        agent: "agent-\(task % 4)", category: task % 2 == 0 ? "code-review" : "CI"))
            }
        }
        events.shuffle()
        for chunk in stride(from: 0, to: events.count, by: 25) {
            _ = try store.ingestEvents(Array(events[chunk..<min(chunk + 25, events.count)]))
        }
    }

    @Test func keysetWindowsWalkTheWholeTimelineBothWays() throws {
        let fixture = try StoreFixture()
        try Self.populate(fixture.store)
        let store = fixture.store
        let all = try store.allRows()
        #expect(all.count == 120)
        #expect(all.map(\.key) == all.map(\.key).sorted(by: >))
        #expect(Set(all.map(\.event.title)).allSatisfy { $0.hasPrefix("Deploy Build") })

        var down: [TimelineRow] = []
        var key: RowKey? = nil
        while true {
            let window = try store.rows(matching: TimelineQuery(), olderThan: key, limit: 7)
            if window.isEmpty { break }
            down += window
            key = window.last?.key
        }
        #expect(down == all)

        var up: [TimelineRow] = [all.last!]
        while true {
            let window = try store.rows(matching: TimelineQuery(), newerThan: up.first!.key, limit: 7)
            if window.isEmpty { break }
            #expect(window.map(\.key) == window.map(\.key).sorted(by: >))
            up = window + up
        }
        #expect(up == all)
    }

    @Test func countNewerIsThePositionOfARow() throws {
        let fixture = try StoreFixture()
        try Self.populate(fixture.store)
        let all = try fixture.store.allRows()
        for index in [0, 1, 59, 119] {
            #expect(try fixture.store.countNewer(than: all[index].key, matching: TimelineQuery()) == index)
        }
        let errors = TimelineQuery(statuses: [.error])
        let errorRows = try fixture.store.allRows(errors)
        #expect(try fixture.store.countNewer(than: errorRows[3].key, matching: errors) == 3)
    }

    @Test func countNewerUpToALimitStopsThere() throws {
        let fixture = try StoreFixture()
        try Self.populate(fixture.store)
        let all = try fixture.store.allRows()
        #expect(try fixture.store.countNewer(than: all[119].key, matching: TimelineQuery(), upTo: 50) == 50)
        #expect(try fixture.store.countNewer(than: all[119].key, matching: TimelineQuery(), upTo: 500) == 119)
        #expect(try fixture.store.countNewer(than: all[0].key, matching: TimelineQuery(), upTo: 50) == 0)
        #expect(try fixture.store.countNewer(than: all[119].key, matching: TimelineQuery(), upTo: -1) == 0)
        let errors = TimelineQuery(statuses: [.error])
        let errorRows = try fixture.store.allRows(errors)
        #expect(try fixture.store.countNewer(than: errorRows[3].key, matching: errors, upTo: 2) == 2)
        #expect(try fixture.store.countNewer(than: errorRows[3].key, matching: errors, upTo: 10) == 3)
    }

    @Test func qualifiersFilterTheTimeline() throws {
        let fixture = try StoreFixture()
        try Self.populate(fixture.store)
        let store = fixture.store
        let all = try store.allRows()

        func check(_ query: TimelineQuery, _ expected: (TimelineRow) -> Bool) throws {
            let rows = try store.allRows(query)
            #expect(rows == all.filter(expected), "\(query)")
            #expect(try store.count(matching: query) == rows.count)
            #expect(!rows.isEmpty)
        }
        try check(TimelineQuery(statuses: [.error, .warning])) { [.error, .warning].contains($0.event.status) }
        try check(TimelineQuery(agents: ["AGENT-3"])) { $0.event.agentID == "agent-3" }
        try check(TimelineQuery(agents: ["nt-1", "nt-2"])) { ["agent-1", "agent-2"].contains($0.event.agentID) }
        try check(TimelineQuery(categories: ["review"])) { $0.event.category == "code-review" }
        try check(TimelineQuery(tasks: ["TASK-1"])) { $0.taskID.hasPrefix("task-1") }
        try check(TimelineQuery(statuses: [.success], agents: ["agent-0"], categories: ["code"])) {
            $0.event.status == .success && $0.event.agentID == "agent-0" && $0.event.category == "code-review"
        }
        // LIKE wildcards in a qualifier are literal characters.
        #expect(try store.count(matching: TimelineQuery(agents: ["agent%"])) == 0)
        #expect(try store.count(matching: TimelineQuery(tasks: ["task_1"])) == 0)

        let counts = try store.statusCounts(matching: TimelineQuery(agents: ["agent-1"]))
        let expected = Dictionary(grouping: all.filter { $0.event.agentID == "agent-1" }, by: \.event.status)
            .mapValues(\.count)
        #expect(counts == expected)
    }

    @Test func searchIsCaseInsensitiveSubstringOverEveryTextColumn() throws {
        let fixture = try StoreFixture()
        #expect(fixture.store.searchTokenizer == .trigram)
        try Self.populate(fixture.store)
        let store = fixture.store
        let all = try store.allRows()

        func check(_ text: String, _ expected: (TimelineRow) -> Bool) throws {
            let query = TimelineQuery.parse(text)
            let rows = try store.allRows(query)
            #expect(rows == all.filter(expected), "\(text)")
            #expect(try store.count(matching: query) == rows.count, "\(text)")
            #expect(!rows.isEmpty, "\(text)")
        }
        try check("ploy bui") { _ in true }                               // two terms, both in every title
        try check("BUILD #11") { $0.event.title.hasPrefix("Deploy Build #11") }
        try check("STRAßE") { $0.event.body.contains("Straße") }           // non-ASCII case folding via trigram
        try check("ünï") { $0.event.body.contains("Ünïcode") }
        try check("T-3") { $0.event.agentID == "agent-3" }                // agent column, short term (LIKE)
        try check("sk-11") { $0.taskID.hasPrefix("task-11") }             // task column
        try check("view") { $0.event.category == "code-review" }          // category column
        try check("ci") { $0.event.category == "CI" }                     // short term: LIKE fallback
        try check("#1 status:error") { $0.event.title.contains("#1") && $0.event.status == .error }
    }
}

@Suite("TimelineStore search index backlog")
struct SearchBacklogTests {
    @Test func searchIsCurrentBeforeAndAfterTheIndexCatchesUp() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        // Indexed rows: enough events to pass the backlog limit, then a deferred batch on top.
        let firstCount = TimelineStore.searchIndexBacklog + 50
        let first = (0..<firstCount).map { makeEvent("a\($0)", task: "T\($0)", second: 1, title: "Alpha build \($0)") }
        try store.ingestEvents(first)
        #expect(try store.searchIndexBacklog() == 0)
        let second = (0..<40).map { makeEvent("b\($0)", task: "T\($0)", second: 2, title: "Beta deploy \($0)") }
            + [makeEvent("c", task: "NEW", second: 3, title: "Gamma release")]
        _ = try store.ingest(second.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        #expect(try store.searchIndexBacklog() == 41)

        func matching(_ text: String) throws -> Set<String> {
            Set(try store.allRows(TimelineQuery.parse(text)).map(\.event.title))
        }
        func check() throws {
            #expect(try matching("ALPHA") == Set((40..<firstCount).map { "Alpha build \($0)" }))
            #expect(try matching("beta deploy") == Set((0..<40).map { "Beta deploy \($0)" }))
            #expect(try matching("gamma") == ["Gamma release"])
            #expect(try matching("task:new") == ["Gamma release"])                    // qualifier on a waiting row
            #expect(try matching("task:T39 beta") == ["Beta deploy 39"])
            // T39's winner is the beta event now; T390…T399 (a task qualifier is a substring) still say alpha.
            #expect(try matching("task:T39 alpha")
                    == Set((40..<firstCount).filter { "T\($0)".contains("T39") }.map { "Alpha build \($0)" }))
            #expect(try store.count(matching: TimelineQuery.parse("alpha")) == firstCount - 40)
            #expect(try store.count(matching: TimelineQuery.parse("build 14"))
                    == (40..<firstCount).filter { String($0).contains("14") }.count)  // 114, 140…149, 214…
        }
        try check()
        try store.flushSearchIndex()
        #expect(try store.searchIndexBacklog() == 0)
        try check()
    }
}

@Suite("TimelineStore search windows")
struct SearchWindowTests {
    /// More tasks than `rareMatchLimit` and `walkBudget` share a common word, a few carry a rare one:
    /// windows of every kind (walk in order, start from the matches, a walk that gives up and starts
    /// from the matches) page through the same rows as a plain filter.
    @Test func commonAndRareTermsPageThroughTheSameRowsAsAFilter() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let tasks = max(SearchWindowPlan.automatic.rareMatchLimit, SearchWindowPlan.automatic.walkBudget) + 1_000
        let events = (0..<tasks).map { task in
            makeEvent("e\(task)", task: "task-\(task)", second: Int64(task % 300),
                      status: Status.allCases[task % Status.allCases.count],
                      title: task % 250 == 0 ? "Common job \(task) with Zanzibar" : "common job \(task)",
                      body: task % 10 != 0 ? "Grüße aus Köln" : "")
        }
        for chunk in stride(from: 0, to: events.count, by: 500) {
            _ = try store.ingest(events[chunk..<min(chunk + 500, events.count)].map { .event($0, messageID: nil) },
                                 deferSearchIndex: true)
        }
        try store.flushSearchIndex()
        let all = try store.allRows()
        #expect(all.count == tasks)

        func check(_ text: String, _ expected: (TimelineRow) -> Bool) throws {
            let query = TimelineQuery.parse(text)
            let wanted = all.filter(expected)
            #expect(!wanted.isEmpty, "\(text)")
            var down: [TimelineRow] = []
            var key: RowKey? = nil
            while true {
                let window = try store.rows(matching: query, olderThan: key, limit: 60)
                if window.isEmpty { break }
                down += window
                key = window.last?.key
            }
            #expect(down.map(\.key) == wanted.map(\.key), "\(text) down")
            let middle = wanted[wanted.count / 2]
            let up = try store.rows(matching: query, newerThan: middle.key, limit: 60)
            #expect(up.map(\.key) == wanted[max(0, wanted.count / 2 - 60)..<(wanted.count / 2)].map(\.key), "\(text) up")
            #expect(try store.count(matching: query) == wanted.count, "\(text) count")
        }
        /// Every term is a substring of one of the five searchable columns (ignoring case).
        func hasAll(_ terms: String...) -> (TimelineRow) -> Bool {
            { row in
                let e = row.event
                let columns = [e.title, e.body, e.agentID, e.taskID, e.category ?? ""].map { $0.lowercased() }
                return terms.allSatisfy { term in columns.contains { $0.contains(term.lowercased()) } }
            }
        }
        try check("COMMON") { _ in true }                                                   // every row: walk
        try check("zanzibar", hasAll("zanzibar"))                                            // 11 rows: from matches
        try check("job 12", hasAll("job", "12"))                                             // common + short term
        try check("common 7 status:error") { hasAll("common", "7")($0) && $0.event.status == .error }
        try check("KÖLN", hasAll("köln"))                                                    // non-ASCII: walk
        try check("zanzibar status:info") { hasAll("zanzibar")($0) && $0.event.status == .info }
        // A common word that qualifiers make rare: the walk's budget runs out before a window fills.
        try check("common task:task-10 status:error") { $0.taskID.contains("task-10") && $0.event.status == .error }
        try check("task:task-59") { $0.taskID.contains("task-59") }                            // qualifier alone
        try check("task:task-59 task:task-60 job") { $0.taskID.contains("task-59") || $0.taskID.contains("task-60") }
        try check("agent:AGENT-1 zanzibar", hasAll("zanzibar"))
    }

    /// Terms shorter than a trigram that are not ASCII are tested per row by `tl_icontains`: caseless
    /// scripts by their bytes, cased ones folded (also against ASCII rows), never matching what folds apart.
    @Test func shortNonASCIITermsMatchIgnoringCase() throws {
        let fixture = try StoreFixture()
        let titles = ["検索索引の再構築", "ÜBER deploy", "über build", "Straße works", "STRASSE works", "kelvin k",
                      "plain ascii"]
        try fixture.store.ingestEvents(titles.enumerated().map { i, title in
            makeEvent("n\(i)", task: "task-\(i)", second: Int64(i), title: title)
        })
        func matching(_ text: String) throws -> Set<String> {
            let query = TimelineQuery.parse(text)
            let rows = try fixture.store.allRows(query)
            #expect(try fixture.store.count(matching: query) == rows.count, "\(text)")
            return Set(rows.map(\.event.title))
        }
        #expect(try matching("索") == ["検索索引の再構築"])
        #expect(try matching("再構") == ["検索索引の再構築"])
        #expect(try matching("構x").isEmpty)
        #expect(try matching("ü") == ["ÜBER deploy", "über build"])
        #expect(try matching("Üb") == ["ÜBER deploy", "über build"])
        #expect(try matching("ß") == ["Straße works"], "ß folds to itself, not to the ASCII row's ss")
        #expect(try matching("\u{212A}") == Set(titles), "the Kelvin sign folds to the k of every row's task id")
    }
}
