import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// The two ways of reading a window of full-text matches (`SearchWindowPlan`: walking the timeline in
/// display order, or starting from the index's matches) give the same rows in the same order for every
/// query shape, and the automatic choice between them holds at its boundaries.
@Suite("Search window plans")
struct SearchWindowPlanTests {
    /// 600 tasks, timestamps colliding (order falls back to seq), a ninth of them updated later with other
    /// text (the index holds a task's newest text only), the last 200 tasks and the updates waiting for
    /// the index. Words: `deploy` every 3rd, `billing` every 4th, `Köln` every 5th body, `検索索引` every
    /// 11th, categories `ops` or none, four agents, every status.
    static func populatedStore() throws -> StoreFixture {
        let fixture = try StoreFixture()
        func event(_ i: Int, update: Bool) -> Event {
            let words = (i % 3 == 0 ? "Deploy " : "step ") + (i % 4 == 0 ? "billing " : "") + "\(i)"
            return makeEvent(update ? "u\(i)" : "e\(i)", task: "task-\(i)", second: update ? 1_000 + Int64(i % 50) : Int64(i % 200),
                             status: Status.allCases[(i + (update ? 1 : 0)) % Status.allCases.count],
                             title: update ? "redeploy later \(i)" : words,
                             body: i % 5 == 0 ? "Grüße aus Köln" : (i % 11 == 0 ? "検索索引の再構築 \(i)" : "plain \(i)"),
                             agent: "agent-\(i % 4)", category: i % 2 == 0 ? "ops" : nil)
        }
        _ = try fixture.store.ingest((0..<400).map { .event(event($0, update: false), messageID: nil) })
        try fixture.store.flushSearchIndex()
        let waiting = (400..<600).map { event($0, update: false) } + stride(from: 0, to: 600, by: 9).map { event($0, update: true) }
        _ = try fixture.store.ingest(waiting.map { .event($0, messageID: nil) }, deferSearchIndex: true)
        return fixture
    }

    static let queries = [
        "deploy", "deploy billing", "DEPLOY Billing", "billing deploy 1",
        "de", "ng 1",                                      // shorter than a trigram (ASCII: tested per row)
        "\"deploy billing\"", "\"billing 12\"",           // quoted phrases
        "köln", "KÖLN deploy", "検索索引", "検索", "索 deploy",  // Unicode, CJK shorter than a trigram
        "status:error deploy", "status:info,warning billing",
        "agent:agent-0 billing", "agent:nt-2 deploy", "category:ops deploy", "category:op billing",
        "deploy -billing", "deploy -status:error", "deploy -agent:agent-1", "deploy -category:ops", "-köln deploy",
        "deploy -\"billing 1\"", "billing -de",
        "redeploy", "later 9",                             // updated tasks' new text, waiting for the index
        "zanzibar", "deploy zanzibar",
    ]

    /// Every window the viewer reads (a first screenful, the next page, highlight's next and previous
    /// match from the middle, a page up from there) with `plan`.
    static func windows(_ store: TimelineStore, _ query: TimelineQuery, _ plan: SearchWindowPlan,
                        middle: RowKey?) throws -> [[String]] {
        func ids(_ read: (rows: [TimelineRow], source: SearchWindowPlan.Source)) -> [String] { read.rows.map(\.event.id) }
        let first = try store.rows(matching: query, from: nil, limit: 36, plan: plan)
        var windows = [ids(first)]
        windows.append(ids(try store.rows(matching: query, from: first.rows.last?.key, limit: 36, plan: plan)))
        if let middle {
            windows.append(ids(try store.rows(matching: query, from: middle, limit: 1, plan: plan)))
            windows.append(ids(try store.rows(matching: query, from: middle, newer: true, limit: 1, plan: plan)))
            windows.append(ids(try store.rows(matching: query, from: middle, newer: true, limit: 36, plan: plan)))
        }
        return windows
    }

    @Test func bothPlansGiveTheSameWindowsForEveryQueryShape() throws {
        let fixture = try Self.populatedStore()
        let store = fixture.store
        #expect(try store.searchIndexBacklog() > 0, "rows waiting for the index")
        let every = try store.allRows()
        let middle = every[every.count / 2].key
        let walk = SearchWindowPlan(walkBudget: .max, forced: .walk)
        let probeAll = SearchWindowPlan(forced: .matches)
        let matchSet = SearchWindowPlan(rareMatchLimit: 1, forced: .matches)  // too many to read: the set query
        for text in Self.queries {
            let query = TimelineQuery.parse(text)
            let walked = try Self.windows(store, query, walk, middle: middle)
            // Matches newer and older than the middle row (when the query matches any): reads around it are compared.
            #expect(walked[0].isEmpty == (text.contains("zanzibar")), "\(text): \(walked[0].count) rows")
            #expect(try Self.windows(store, query, probeAll, middle: middle) == walked, "\(text): from the probe's matches")
            #expect(try Self.windows(store, query, matchSet, middle: middle) == walked, "\(text): from the match set")
            #expect(try Self.windows(store, query, .automatic, middle: middle) == walked, "\(text): automatic")
            #expect(try store.allRows(query).map(\.event.id) == (try store.rows(matching: query, from: nil, limit: .max, plan: walk).rows.map(\.event.id)),
                    "\(text): every row")
        }
        // Spot checks against the rules themselves: the newest text only, waiting rows found, case folded.
        let redeploy = try store.rows(matching: TimelineQuery.parse("redeploy"), from: nil, limit: .max, plan: walk).rows
        #expect(redeploy.count == 67)
        let deployBilling = try store.rows(matching: TimelineQuery.parse("DEPLOY Billing"), from: nil, limit: .max, plan: walk).rows
        #expect(Set(deployBilling.map(\.event.taskID)) == Set((0..<600).filter { $0 % 12 == 0 && $0 % 9 != 0 }.map { "task-\($0)" }))
    }

    /// Tasks at positions 1…60 of the timeline, newest first; `needle` in the title at `positions`.
    static func store(needleAt positions: Set<Int>) throws -> StoreFixture {
        let fixture = try StoreFixture()
        try fixture.store.ingestEvents((1...60).map { position in
            makeEvent("e\(position)", task: "task-\(position)", second: Int64(1_000 - position),
                      title: positions.contains(position) ? "a needle here" : "hay")
        })
        try fixture.store.flushSearchIndex()  // the sample reads the index
        return fixture
    }

    /// A plan that walks first whenever the sample holds one match, with a walk budget of `budget` rows
    /// (and a walk before the probe as long, or `beforeProbe` rows).
    static func walkingFirst(budget: Int, beforeProbe: Int? = nil) -> SearchWindowPlan {
        SearchWindowPlan(walkBudget: budget, densitySample: 1, walkEstimateLimit: .max, walkBeforeProbeBudget: beforeProbe ?? budget)
    }

    @Test func aWindowFilledAtTheBudgetsLastRowIsTheWalks() throws {
        let fixture = try Self.store(needleAt: [4, 8, 12, 16, 20, 30, 40])
        let read = try fixture.store.rows(matching: TimelineQuery.parse("needle"), from: nil, limit: 5,
                                          plan: Self.walkingFirst(budget: 20))
        #expect(read.source == .walk)
        #expect(read.rows.map(\.event.taskID) == ["task-4", "task-8", "task-12", "task-16", "task-20"])
    }

    @Test func aBudgetRunOutOneRowShortStartsFromTheMatches() throws {
        let fixture = try Self.store(needleAt: [4, 8, 12, 16, 20, 30, 40])
        let read = try fixture.store.rows(matching: TimelineQuery.parse("needle"), from: nil, limit: 5,
                                          plan: Self.walkingFirst(budget: 19))
        #expect(read.source == .matches)
        #expect(read.rows.map(\.event.taskID) == ["task-4", "task-8", "task-12", "task-16", "task-20"])
    }

    /// A walk before the probe that gives up, the probe finding more than it reads: the walk again, with
    /// the whole budget.
    @Test func aShortWalkBeforeTheProbeLeavesTheWholeBudgetAfterIt() throws {
        let fixture = try Self.store(needleAt: [4, 8, 12, 16, 20, 30, 40])
        let query = TimelineQuery.parse("needle")
        var plan = Self.walkingFirst(budget: 20, beforeProbe: 19)
        plan.rareMatchLimit = 7
        let read = try fixture.store.rows(matching: query, from: nil, limit: 5, plan: plan)
        #expect(read.source == .walk)
        #expect(read.rows.map(\.event.taskID) == ["task-4", "task-8", "task-12", "task-16", "task-20"])
        plan.rareMatchLimit = 8
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 5, plan: plan).source == .matches)
    }

    @Test func aWalkThatSeesEveryRowIsTheAnswerEvenShort() throws {
        let fixture = try Self.store(needleAt: [4, 8])
        let read = try fixture.store.rows(matching: TimelineQuery.parse("needle"), from: nil, limit: 5,
                                          plan: Self.walkingFirst(budget: 61))
        #expect(read.source == .walk)
        #expect(read.rows.map(\.event.taskID) == ["task-4", "task-8"])
    }

    @Test func anEmptyStoreGivesNoRowsEitherWay() throws {
        let fixture = try StoreFixture()
        let query = TimelineQuery.parse("deploy billing")
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 36, plan: .automatic).rows.isEmpty)
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 36, plan: SearchWindowPlan(forced: .walk)).rows.isEmpty)
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 36, plan: SearchWindowPlan(forced: .matches)).rows.isEmpty)
    }

    /// The automatic choice: a sample short of `densitySample` is every match (sorted); a full one walks
    /// first when dense, else the probe decides (here: all read, sorted).
    @Test func theSampleChoosesThePlan() throws {
        let fixture = try Self.store(needleAt: Set(1...60).filter { $0 % 2 == 0 })
        let query = TimelineQuery.parse("needle")
        let rare = SearchWindowPlan(densitySample: 31, walkEstimateLimit: .max)
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 5, plan: rare).source == .matches)
        let dense = SearchWindowPlan(densitySample: 30, walkEstimateLimit: 10)
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 5, plan: dense).source == .walk)
        let sparse = SearchWindowPlan(densitySample: 30, walkEstimateLimit: 9)
        #expect(try fixture.store.rows(matching: query, from: nil, limit: 5, plan: sparse).source == .matches)
    }

    /// The estimate: `limit` × the row ids the sample spans ÷ its size, against `walkEstimateLimit`.
    @Test func walksFirstWhenTheSampleIsDenseEnough() {
        let plan = SearchWindowPlan(densitySample: 4, walkEstimateLimit: 100)
        #expect(plan.walksFirst(sample: [100, 90, 80, 61], limit: 10))       // 40 ids for 4 matches: 100 rows
        #expect(!plan.walksFirst(sample: [100, 90, 80, 60], limit: 10))      // 41 ids: 102.5 rows
        #expect(!plan.walksFirst(sample: [100, 99, 98], limit: 10))          // short of the sample: every match
        #expect(!plan.walksFirst(sample: [], limit: 10))
    }
}
