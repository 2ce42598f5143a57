import Dispatch
import Foundation
import Testing
import TimelineCore
import TimelineRuntime
@testable import TimelineUI

/// Holds every whole-list count until the test lets them go (a count over a large filtered history).
private final class CountGate: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var waiting = 0
    func open() { semaphore.signal() }
    func pass() {
        lock.lock(); waiting += 1; lock.unlock()
        semaphore.wait(); semaphore.signal()
    }
    var held: Int { lock.lock(); defer { lock.unlock() }; return waiting }
}

/// `count` tasks in memory, newest first (T<count-1> … T0), all `info`; whole-list counts wait at the gate.
private final class HistoryReader: EmptyTimelineReader, @unchecked Sendable {
    let rows: [TimelineRow]
    let gate: CountGate
    init(count: Int, gate: CountGate) {
        rows = (0..<count).reversed().map { i in
            let ts = Int64(1_795_000_000_000_000) + Int64(i) * 1_000_000
            let event = Event(id: "e\(i)", agentID: "agent", taskID: "T\(i)", title: "task \(i)", body: "",
                              status: .info, category: nil, timestampMicros: ts, rawJSON: "{}")
            return TimelineRow(event: event, seq: Int64(i + 1), eventCount: 1, receivedMicros: ts)
        }
        self.gate = gate
    }
    override func rows(matching query: TimelineQuery, olderThan key: RowKey?, limit: Int) throws -> [TimelineRow] {
        Array(rows.filter { key == nil || $0.key < key! }.prefix(limit))
    }
    override func rows(matching query: TimelineQuery, newerThan key: RowKey, limit: Int) throws -> [TimelineRow] {
        Array(rows.filter { $0.key > key }.suffix(limit))
    }
    override func statusCounts(matching query: TimelineQuery) throws -> [Status: Int] { [.info: rows.count] }
    override func count(matching query: TimelineQuery) throws -> Int {
        gate.pass()
        return rows.count
    }
    override func countNewer(than key: RowKey, matching query: TimelineQuery) throws -> Int {
        gate.pass()
        return rows.filter { $0.key > key }.count
    }
}

/// The far end of a large history: End reads a screenful, not the whole list.
@Suite("The oldest rows")
struct FarEndTests {
    /// Applies results as they arrive (woken as the terminal loop is) until `done`, at most `seconds`.
    private static func wait(_ controller: TimelineController, seconds: Double, until done: () -> Bool) -> Bool {
        let woken = DispatchSemaphore(value: 0)
        controller.setWakeHandler { woken.signal() }
        defer { controller.setWakeHandler(nil) }
        let deadline = DispatchTime.now() + seconds
        while true {
            _ = controller.drain()
            if done() { return true }
            if woken.wait(timeout: deadline) == .timedOut { _ = controller.drain(); return done() }
        }
    }

    @Test func endShowsTheOldestRowsWithoutCountingTheListAgain() throws {
        let gate = CountGate()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: 1_795_000_000_000_000),
                                            makeReader: { HistoryReader(count: 500, gate: gate) }, countDebounce: 0)
        defer { gate.open() }  // a count still waiting finishes, so the lanes end
        controller.start()
        try controller.settle()
        #expect(controller.state.counts.total == 500 && controller.state.counts.cap == nil)

        controller.send(.key(.end))
        let shown = Self.wait(controller, seconds: 10) { controller.state.window.last?.taskID == "T0" }
        #expect(shown, "the oldest rows arrive while a whole-list count would still be waiting")
        #expect(gate.held == 0, "no whole-list count was started")
        #expect(controller.state.selectedRow?.taskID == "T0")
        #expect(controller.state.selectedPosition == 499, "the position comes from the counts on screen")
        #expect(controller.state.windowReachesNewest == false)
    }

    @Test func theOldestWindowCountsOnlyWhenTheTotalIsUnknown() throws {
        let open = CountGate()
        open.open()
        var request = WindowRequest(generation: 0, query: TimelineQuery(), anchor: .oldest, above: 0, below: 30,
                                    anchorPosition: nil, keepSelection: false, targetLine: nil)
        for total in [nil, 500] {
            request.listTotal = total
            let result = EffectExecutor.run(.loadWindow(request), on: HistoryReader(count: 500, gate: open))
            guard case .windowLoaded(let window)? = result else {
                Issue.record("no window: \(String(describing: result))")
                continue
            }
            #expect(window.rows.map(\.taskID) == (0..<30).reversed().map { "T\($0)" })
            #expect(window.startPosition == 470)
            #expect(!window.reachesNewest && window.reachesOldest)
        }
        // A list that fits in the window starts at the newest: no count at all (a closed gate would hang one).
        let closed = CountGate()
        defer { closed.open() }
        let result = EffectExecutor.run(.loadWindow(request), on: HistoryReader(count: 10, gate: closed))
        guard case .windowLoaded(let window)? = result else {
            Issue.record("no window: \(String(describing: result))")
            return
        }
        #expect(window.rows.count == 10 && window.startPosition == 0 && window.reachesNewest)
    }
}
