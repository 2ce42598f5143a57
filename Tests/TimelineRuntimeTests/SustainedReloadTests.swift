import Dispatch
import Foundation
import Testing
import TimelineCore
import TimelineRuntime
import TimelineStore
import TestSupport
@testable import TimelineUI

/// A real store whose window query takes `windowMillis` (as on a loaded machine while the poller writes),
/// stopping part-way as soon as its caller says it is no longer wanted.
private final class SlowWindowReader: TimelineReading, CancellableReading, @unchecked Sendable {
    let store: TimelineStore
    let windowMillis: Int
    private var isCancelled: (@Sendable () -> Bool)?

    init(store: TimelineStore, windowMillis: Int) {
        self.store = store
        self.windowMillis = windowMillis
    }

    func cancellable<T>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T) throws -> T {
        self.isCancelled = isCancelled
        defer { self.isCancelled = nil }
        return try store.cancellable(when: isCancelled, body)
    }

    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        for _ in 0..<windowMillis {
            if isCancelled?() == true { throw ReadCancelled() }
            usleep(1_000)
        }
        return try store.rows(matching: query, olderThan: key, limit: limit)
    }
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        try store.rows(matching: query, newerThan: key, limit: limit)
    }
    func count(matching query: TimelineQuery) throws -> Int { try store.count(matching: query) }
    func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int { try store.count(matching: query, upTo: limit) }
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int { try store.countNewer(than: key, matching: query) }
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { try store.statusCounts(matching: query) }
    func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] {
        try store.statusCounts(matching: query, upTo: limit)
    }
    func row(taskID: String) throws -> TimelineRow? { try store.row(taskID: taskID) }
    func history(taskID: String, limit: Int) throws -> [Event] { try store.history(taskID: taskID, limit: limit) }
    func changeToken() throws -> Int64 { try store.changeToken() }
}

@Suite("Reloads while the store keeps changing")
struct SustainedReloadTests {
    /// Under sustained ingest a reload of the same window is asked for again before the last one finished.
    /// The one running gives the same answer the new one would (older by one check): it must finish and be
    /// shown, or no reload ever lands while the writes go on and the screen freezes.
    @Test func aReloadRunningWhenTheStoreChangesAgainFinishesAndIsShown() throws {
        let directory = try TemporaryDirectory(prefix: "timeline-sustained")
        let path = directory.file("timeline.db")
        let writer = try TimelineStore(path: path)
        var published = 0
        func publish() throws {
            published += 1
            _ = try writer.ingest([.event(Event(id: "e\(published)", agentID: "agent-1", taskID: "T-\(published)",
                                                title: "task \(published)", body: "", status: .info, category: nil,
                                                timestampMicros: fixedNow + Int64(published) * 1_000, rawJSON: "{}"),
                                          messageID: nil)])
        }
        try publish()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: fixedNow),
                                            makeReader: { SlowWindowReader(store: try TimelineStore(path: path), windowMillis: 40) },
                                            countDebounce: 0)
        controller.start()
        try controller.settle(timeout: 30)
        #expect(controller.state.window.first?.taskID == "T-1")
        // A write and its store change every 10 ms (a quarter of one window query), until two reloads showed
        // newer rows, or a few seconds passed.
        var shownTops: Set<String> = []
        for _ in 0..<400 where shownTops.count < 3 {
            try publish()
            controller.send(.storeChanged)
            usleep(10_000)
            _ = controller.drain()
            if let top = controller.state.window.first?.taskID { shownTops.insert(top) }
        }
        #expect(shownTops.count >= 3, "the list showed only \(shownTops.sorted()) while \(published) tasks arrived")
        try controller.settle(timeout: 30)
        #expect(controller.state.window.first?.taskID == "T-\(published)")
    }
}
