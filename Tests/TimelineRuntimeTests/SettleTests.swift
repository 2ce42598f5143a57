import Dispatch
import Testing
import TimelineCore
import TimelineRuntime
import TimelineUI

/// A gate the test opens; until then every window read waits at it.
private final class Gate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func open() { semaphore.signal() }
    func pass() { semaphore.wait(); semaphore.signal() }
}

/// An empty timeline whose row reads wait at a gate (a load that hangs, as on a locked or slow disk).
private final class GatedReader: EmptyTimelineReader {
    let gate: Gate
    init(gate: Gate) { self.gate = gate }
    override func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        gate.pass()
        return []
    }
    override func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        gate.pass()
        return []
    }
}

@Suite("Controller settle")
struct SettleTests {
    @Test func settleThrowsWhileALoadHangsAndReturnsOnceItFinishes() throws {
        let gate = Gate()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: 0),
                                            makeReader: { GatedReader(gate: gate) }, countDebounce: 0)
        controller.start()
        #expect(throws: SettleTimeout.self) { try controller.settle(timeout: 0.2) }
        #expect(!controller.state.loadedOnce)
        gate.open()
        try controller.settle()
        #expect(controller.state.loadedOnce)
        #expect(controller.state.counts.total == 0)
    }
}
