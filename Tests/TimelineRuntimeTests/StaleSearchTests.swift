import Dispatch
import Foundation
import Testing
import TimelineCore
import TimelineRuntime
import TimelineStore
import TestSupport
@testable import TimelineUI

/// Where the test holds one query's count and what the readers saw stopped as stale.
private final class Hold: @unchecked Sendable {
    let query: TimelineQuery
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var holding = true
    private var stopped: [TimelineQuery] = []
    init(_ query: TimelineQuery) { self.query = query }

    /// True once, for the first count of the held query.
    func takes(_ query: TimelineQuery) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard holding, query == self.query else { return false }
        holding = false
        return true
    }
    func noteStopped(_ query: TimelineQuery) { lock.lock(); stopped.append(query); lock.unlock() }
    var cancelled: [TimelineQuery] { lock.lock(); defer { lock.unlock() }; return stopped }
}

/// A real store (one connection per lane, as `timeline tui` opens them) whose count of the held query waits
/// until the test lets it go, and which notes every read stopped as stale. Stands in for a count still
/// running over a large history when the next key arrives.
private final class HeldCountReader: TimelineReading, CancellableReading, @unchecked Sendable {
    let store: TimelineStore
    let hold: Hold
    private var current: TimelineQuery?

    init(store: TimelineStore, hold: Hold) {
        self.store = store
        self.hold = hold
    }

    func statusCounts(matching query: TimelineQuery, upTo limit: Int) throws -> [Status: Int] {
        current = query
        if hold.takes(query) {
            hold.started.signal()
            hold.release.wait()
        }
        return try store.statusCounts(matching: query, upTo: limit)
    }

    func cancellable<T>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T) throws -> T {
        current = nil
        do {
            return try store.cancellable(when: isCancelled, body)
        } catch let error as ReadCancelled {
            if let current { hold.noteStopped(current) }
            throw error
        }
    }

    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        try store.rows(matching: query, olderThan: key, limit: limit)
    }
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        try store.rows(matching: query, newerThan: key, limit: limit)
    }
    func count(matching query: TimelineQuery) throws -> Int { try store.count(matching: query) }
    func count(matching query: TimelineQuery, upTo limit: Int) throws -> Int { try store.count(matching: query, upTo: limit) }
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int { try store.countNewer(than: key, matching: query) }
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { try store.statusCounts(matching: query) }
    func row(taskID: String) throws -> TimelineRow? { try store.row(taskID: taskID) }
    func history(taskID: String, limit: Int) throws -> [Event] { try store.history(taskID: taskID, limit: limit) }
    func changeToken() throws -> Int64 { try store.changeToken() }
}

@Suite("Stale searches and capped counts in the runtime")
struct StaleSearchTests {
    /// `tasks` tasks titled "alpha N" (task 0 an error, the others info), written by a writer connection.
    static func alphaDatabase(tasks: Int) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory(prefix: "timeline-stale")
        let path = directory.file("timeline.db")
        let writer = try TimelineStore(path: path)
        _ = try writer.ingest((0..<tasks).map { i in
            .event(Event(id: "e\(i)", agentID: "agent-1", taskID: "T-\(i)", title: "alpha \(i)", body: "",
                         status: i == 0 ? .error : .info, category: nil,
                         timestampMicros: fixedNow - Int64(tasks - i) * 1_000_000, rawJSON: "{}"), messageID: nil)
        })
        return (directory, path)
    }

    @Test func aCountMadeStaleByTheNextKeystrokeStopsAndOnlyTheNewQueryIsCounted() throws {
        let (directory, path) = try Self.alphaDatabase(tasks: 3_000)
        _ = directory
        let held = TimelineQuery.parse("alpha")
        let hold = Hold(held)
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: fixedNow),
                                            makeReader: { HeldCountReader(store: try TimelineStore(path: path), hold: hold) },
                                            countDebounce: 0)
        controller.start()
        try controller.settle()
        controller.send(.key(.char("/")))
        for c in "alpha" { controller.send(.key(.char(c))) }
        // The count for "alpha" is running (held before its query); the next keystroke makes it stale.
        #expect(hold.started.wait(timeout: .now() + 30) == .success)
        for c in " 12" { controller.send(.key(.char(c))) }
        hold.release.signal()
        try controller.settle(timeout: 30)
        #expect(hold.cancelled.contains(held))
        // Only the last query's counts arrived: "alpha 12" matches the tasks whose number holds "12".
        #expect(controller.state.counts.generation == controller.state.generation)
        #expect(controller.state.search.matchCount == (0..<3_000).filter { String($0).contains("12") }.count)
        #expect(controller.state.counts.cap == nil)
    }

    @Test func aLargeMatchSetShowsTheCapPlusThenItsExactCount() throws {
        let (directory, path) = try Self.alphaDatabase(tasks: CountsRequest.firstCap + 1)
        _ = directory
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: fixedNow),
                                            makeReader: { try TimelineStore(path: path) }, countDebounce: 0)
        controller.start()
        try controller.settle(timeout: 30)
        controller.send(.key(.char("/")))
        for c in "alpha" { controller.send(.key(.char(c))) }
        // First the capped count: more than 1,000, shown as such.
        let deadline = Date().addingTimeInterval(30)
        var sawCapped = false
        while Date() < deadline {
            _ = controller.drain()
            let s = controller.state
            if s.counts.generation == s.generation, s.counts.cap != nil {
                sawCapped = true
                #expect(renderPromptText(s).contains("1,000+ matches"))
                break
            }
            usleep(500)
        }
        try controller.settle(timeout: 30)
        // Then the exact count replaces it.
        #expect(controller.state.search.matchCount == 1_001)
        #expect(controller.state.counts.cap == nil)
        #expect(renderPromptText(controller.state).contains("1,001 matches"))
        // "status:info" has exactly 1,000: counted to the end within the cap, exact at once.
        for _ in 0..<5 { controller.send(.key(.backspace)) }
        for c in "status:info" { controller.send(.key(.char(c))) }
        try controller.settle(timeout: 30)
        #expect(controller.state.search.matchCount == 1_000)
        #expect(renderPromptText(controller.state).contains("1,000 matches"))
        // The exact count is asked for only once the capped one is applied, so the capped stage is always seen.
        #expect(sawCapped)
    }

    /// The status line of the rendered screen.
    private func renderPromptText(_ state: AppState) -> String {
        let screen = render(state, width: state.width, height: state.height)
        return screen.line(state.height - 1)
    }
}
