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

/// A real store (one connection per lane, as `timeline tui` opens them) whose per-status count of the held
/// query waits until the test lets it go, and which notes every read stopped as stale. Stands in for a count
/// still running over a large history when the next key arrives.
private func heldCountReader(store: TimelineStore, hold: Hold) -> ForwardingReader {
    ForwardingReader(store, before: { read, query, _ in
        guard read == .statusCounts || read == .statusCountsUpTo, let query, hold.takes(query) else { return }
        hold.started.signal()
        hold.release.wait()
    }, stopped: { query in
        if let query { hold.noteStopped(query) }
    })
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
                                            makeReader: { heldCountReader(store: try TimelineStore(path: path), hold: hold) },
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

    /// Drains the controller until `shown` holds for its state (30 s at most); the state then.
    private func waitUntil(_ controller: TimelineController, _ shown: (AppState) -> Bool) -> AppState? {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            _ = controller.drain()
            if shown(controller.state) { return controller.state }
            usleep(500)
        }
        return nil
    }

    /// A started controller on the alpha database at `path` whose exact count of `text` (typed into the
    /// `/` prompt now) is held: the state once the first counts of `text` are shown.
    private func typedWithCountHeld(_ text: String, path: String, hold: Hold) throws -> (TimelineController, AppState) {
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: fixedNow),
                                            makeReader: { heldCountReader(store: try TimelineStore(path: path), hold: hold) },
                                            countDebounce: 0)
        controller.start()
        try controller.settle(timeout: 30)
        controller.send(.key(.char("/")))
        for c in text { controller.send(.key(.char(c))) }
        #expect(hold.started.wait(timeout: .now() + 30) == .success)
        let first = try #require(waitUntil(controller) { $0.counts.generation == $0.generation })
        return (controller, first)
    }

    @Test func aLargeMatchSetShowsItsFirstScreenfulPlusThenItsExactCount() throws {
        let (directory, path) = try Self.alphaDatabase(tasks: CountsRequest.firstCap + 1)
        _ = directory
        // The exact count of "alpha" waits while the first counts are looked at.
        let hold = Hold(TimelineQuery.parse("alpha"))
        let (controller, first) = try typedWithCountHeld("alpha", path: path, hold: hold)
        // First the screenful read: more matches than it holds, shown as such.
        let read = first.window.count
        #expect(read > 0 && read < CountsRequest.firstCap)
        #expect(first.counts.cap == read)
        #expect(first.search.matchCount == read + 1)
        #expect(renderPromptText(first).contains("\(read)+ matches"))
        hold.release.signal()
        try controller.settle(timeout: 30)
        // Then the exact count replaces it.
        #expect(controller.state.search.matchCount == 1_001)
        #expect(controller.state.counts.cap == nil)
        #expect(renderPromptText(controller.state).contains("1,001 matches"))
        // "status:info" (a status filter: counted capped first) has exactly 1,000: counted to the end within
        // the cap, exact at once.
        for _ in 0..<5 { controller.send(.key(.backspace)) }
        for c in "status:info" { controller.send(.key(.char(c))) }
        try controller.settle(timeout: 30)
        #expect(controller.state.search.matchCount == 1_000)
        #expect(renderPromptText(controller.state).contains("1,000 matches"))
    }

    @Test func aMatchSetSmallerThanTheScreenIsExactFromItsFirstScreenful() throws {
        let (directory, path) = try Self.alphaDatabase(tasks: 1_001)
        _ = directory
        let hold = Hold(TimelineQuery.parse("alpha 999"))
        let (controller, first) = try typedWithCountHeld("alpha 999", path: path, hold: hold)
        // While the exact count is held, the screenful (one row) is the exact count.
        #expect(first.counts.cap == nil)
        #expect(first.search.matchCount == 1)
        #expect(renderPromptText(first).contains("1 match "))
        hold.release.signal()
        try controller.settle(timeout: 30)
        #expect(controller.state.search.matchCount == 1)
        #expect(controller.state.counts.cap == nil)
    }

    /// The status line of the rendered screen.
    private func renderPromptText(_ state: AppState) -> String {
        let screen = render(state, width: state.width, height: state.height)
        return screen.line(state.height - 1)
    }
}
