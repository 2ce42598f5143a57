import Dispatch
import Synchronization
import Testing
import TimelineCore
import TimelineRuntime
import TimelineUI

/// Actions whose writes wait at a gate the test opens (a slow disk), recording what was written.
private final class GatedActions: TimelineActions {
    private let gate = DispatchSemaphore(value: 0)
    let searches = Mutex<[[String]]>([])
    func open() { gate.signal() }
    func setMark(taskID: String, marked: Bool) throws {}
    func saveView(_ view: NamedQuery) throws -> String { "" }
    func rememberView(name: String?) throws {}
    func rememberSearches(_ history: [String]) throws {
        gate.wait()
        gate.signal()
        searches.withLock { $0.append(history) }
    }
    func setPins(_ taskIDs: [String]) throws {}
    func exportHistory(taskID: String) throws -> String { "" }
}

/// An empty timeline.
private final class EmptyReader: TimelineReading {
    func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] { [] }
    func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] { [] }
    func count(matching query: TimelineQuery) throws -> Int { 0 }
    func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int { 0 }
    func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { [:] }
    func row(taskID: String) throws -> TimelineRow? { nil }
    func history(taskID: String, limit: Int) throws -> [Event] { [] }
    func changeToken() throws -> Int64 { 0 }
}

@Suite("Controller: actions finish before quitting")
struct FinishActionsTests {
    @Test func quittingWaitsForTheActionsAlreadyQueued() throws {
        let actions = GatedActions()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: 0),
                                            makeReader: { EmptyReader() }, countDebounce: 0, actions: actions)
        controller.start()
        for input: Input in [.key(.char("/")), .key(.char("x")), .key(.enter)] { controller.send(input) }
        // The write is queued but held: finishing reports that time ran out, and nothing is written yet.
        #expect(!controller.finishActions(timeout: 0.2))
        #expect(actions.searches.withLock { $0.isEmpty })
        actions.open()
        #expect(controller.finishActions())
        #expect(actions.searches.withLock { $0 } == [["x"]])
    }
}
