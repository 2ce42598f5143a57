import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// The search page (a screenful, newest first, read with a bounded plan) against the same rules evaluated
/// plainly over every task; capped counts at the cap's boundary; reads stopped part-way.
@Suite("Bounded search pages and capped counts")
struct BoundedSearchTests {
    /// 6,000 tasks: half of them errors (a common status: the page walks in display order), a dozen
    /// needs_input (rare: read from the status index), 50 agents, a CJK title every 7th task, `deploy`
    /// on every 6th. Big enough that every plan of `window` is taken (probe limit 2,000, walk budget 5,000).
    static let taskCount = 6_000

    static func events() -> [Event] {
        (0..<taskCount).map { i in
            let status: Status = i % 500 == 0 ? .needsInput : (i % 2 == 0 ? .error : Status.allCases[i % 4])
            let title = i % 7 == 0 ? "検索テスト \(i)" : "gateway step \(i)"
            return Event(id: "e\(i)", agentID: "agent-\(i % 50)", taskID: "task-\(i)", title: title,
                         body: "details for \(i)", status: status, category: i % 6 == 0 ? "deploy" : "ci",
                         timestampMicros: 1_800_000_000_000_000 + Int64(i) * 1_000_000, rawJSON: "{}")
        }
    }

    /// The task ids matching `q` by the plain rules (the subset of the query language used here), newest first.
    static func expected(_ events: [Event], _ q: TimelineQuery) -> [String] {
        func has(_ s: String?, _ n: String) -> Bool { (s ?? "").lowercased().contains(n.lowercased()) }
        return events.filter { e in
            let text = [e.title, e.body, e.agentID, e.taskID, e.category ?? ""]
            return q.terms.allSatisfy { t in text.contains { has($0, t) } }
                && (q.statuses.isEmpty || q.statuses.contains(e.status))
                && (q.agents.isEmpty || q.agents.contains { has(e.agentID, $0) })
                && (q.categories.isEmpty || q.categories.contains { has(e.category, $0) })
        }.sorted { $0.timestampMicros > $1.timestampMicros }.map(\.taskID)
    }

    static let queries = [
        "agent:agent-7 deploy",  // qualifier + text, no task has both (agent-7 tasks are odd, deploy ones even)
        "agent:agent-8 deploy",  // qualifier + text, a few matches spread over the whole history
        "agent:agent-12",        // qualifier alone, 2% of the tasks
        "status:error gateway",  // a common status and a common term
        "status:error 7",        // a common status and a term shorter than a trigram
        "gateway 7",             // an indexed term matching most tasks and a short one (counted walking the timeline)
        "details 12 status:error",
        "status:needs_input",    // a rare status
        "status:error",          // a common status alone
        "検索テスト", "検索",       // CJK through the index, and shorter than a trigram
        "検索 agent:agent-3",     // CJK with a qualifier
        "zebra-none",            // nothing
        "status:needs_input zebra",
    ]

    @Test func firstPagesEqualThePlainRulesNewestFirst() throws {
        let fixture = try StoreFixture()
        let events = Self.events()
        try fixture.store.ingestEvents(events)
        for text in Self.queries {
            let query = TimelineQuery.parse(text)
            let all = Self.expected(events, query)
            let page = try fixture.store.rows(matching: query, olderThan: nil, limit: 41)
            #expect(page.map(\.taskID) == Array(all.prefix(41)), "first page of \(text)")
            // The next page continues where the first ended, as a keyset window.
            if let last = page.last {
                let next = try fixture.store.rows(matching: query, olderThan: last.key, limit: 41)
                #expect(next.map(\.taskID) == Array(all.dropFirst(41).prefix(41)), "second page of \(text)")
            }
            #expect(try fixture.store.count(matching: query) == all.count, "count of \(text)")
            #expect(try fixture.store.count(matching: query, upTo: 100) == min(all.count, 100), "capped count of \(text)")
            let perStatus = try fixture.store.statusCounts(matching: query)
            #expect(perStatus.values.reduce(0, +) == all.count, "status counts of \(text)")
        }
    }

    /// Stores `tasks` tasks titled "alpha N": the first is an error, the others info.
    static func alphaStore(tasks: Int) throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents((0..<tasks).map { i in
            makeEvent("a\(i)", task: "T-\(i)", second: Int64(i), status: i == 0 ? .error : .info, title: "alpha \(i)")
        })
        return fixture
    }

    @Test func cappedCountsTellExactlyTheCapFromMore() throws {
        let fixture = try Self.alphaStore(tasks: 10_001)
        let store = fixture.store
        let cap = 10_000
        // 10,000 matches: counted to the end, one short of cap + 1, so exact.
        for text in ["status:info", "alpha status:info", "-status:error"] {
            let query = TimelineQuery.parse(text)
            #expect(try store.count(matching: query, upTo: cap + 1) == 10_000, "\(text)")
            #expect(try store.statusCounts(matching: query, upTo: cap + 1) == [.info: 10_000], "\(text)")
        }
        // 10,001 matches: the count stops at cap + 1, which says "more than 10,000".
        for text in ["alpha", "", "T-"] {
            let query = TimelineQuery.parse(text)
            #expect(try store.count(matching: query, upTo: cap + 1) == 10_001, "\(text)")
            #expect(try store.statusCounts(matching: query, upTo: cap + 1).values.reduce(0, +) == 10_001, "\(text)")
            #expect(try store.count(matching: query, upTo: cap) == cap, "\(text)")
        }
        // Statuses alone are read from the kept counts: whole counts past the limit too (lower bounds still).
        #expect(try store.statusCounts(matching: TimelineQuery(), upTo: 5) == store.statusCounts(matching: TimelineQuery()))
        #expect(try store.statusCounts(matching: TimelineQuery.parse("status:info"), upTo: 5) == [.info: 10_000])
    }

    @Test func aCancelledReadStopsAndTheConnectionGoesOn() throws {
        let fixture = try Self.alphaStore(tasks: 3_000)
        let store = fixture.store
        let query = TimelineQuery.parse("alpha status:info")
        #expect(throws: ReadCancelled.self) {
            try store.cancellable(when: { true }) { try store.count(matching: query) }
        }
        // Stopped part-way, not before starting: a check that turns true during the query stops it too.
        let checks = CheckCounter(trueAfter: 3)
        #expect(throws: ReadCancelled.self) {
            try store.cancellable(when: { checks.next() }) { try store.count(matching: query) }
        }
        #expect(checks.count > 3)
        // Not cancelled: the same read answers, and the connection works normally afterwards.
        #expect(try store.cancellable(when: { false }) { try store.count(matching: query) } == 2_999)
        #expect(try store.count(matching: query) == 2_999)
        #expect(try store.rows(matching: query, olderThan: nil, limit: 5).map(\.taskID) == ["T-2999", "T-2998", "T-2997", "T-2996", "T-2995"])
    }
}

/// Answers false `trueAfter` times, then true; counts the questions.
private final class CheckCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var asked = 0
    private let trueAfter: Int
    init(trueAfter: Int) { self.trueAfter = trueAfter }
    var count: Int { lock.lock(); defer { lock.unlock() }; return asked }
    func next() -> Bool {
        lock.lock(); defer { lock.unlock() }
        asked += 1
        return asked > trueAfter
    }
}
