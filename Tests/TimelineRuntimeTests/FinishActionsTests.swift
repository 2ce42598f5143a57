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

@Suite("Controller: actions finish before quitting")
struct FinishActionsTests {
    @Test func quittingWaitsForTheActionsAlreadyQueued() throws {
        let actions = GatedActions()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: 0),
                                            makeReader: { EmptyTimelineReader() }, countDebounce: 0, actions: actions)
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
