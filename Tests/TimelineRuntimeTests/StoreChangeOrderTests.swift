import Dispatch
import Foundation
import Synchronization
import Testing
import TimelineCore
import TimelineRuntime
import TimelineStore
import TestSupport
@testable import TimelineUI

@Suite("A store change's rows before its counts")
struct StoreChangeOrderTests {
    /// A reload for a commit reads the changed rows first and counts them after: counts that came first
    /// drew a frame of their own, and the rows then waited a whole frame for the next slot.
    @Test func theCountsOfAStoreChangeStartOnlyOnceItsRowsWereRead() throws {
        let directory = try TemporaryDirectory(prefix: "timeline-change-order")
        let path = directory.file("timeline.db")
        let writer = try TimelineStore(path: path)
        try publishNumbered(1, with: writer)
        let windowMillis = 100
        let holdWindows = Atomic(false)
        let reads = Mutex<[(read: ForwardingReader.Read, atNanos: UInt64)]>([])
        let controller = TimelineController(
            state: AppState(width: 80, height: 12, nowMicros: fixedNow),
            makeReader: {
                ForwardingReader(try TimelineStore(path: path), before: { read, _, _ in
                    reads.withLock { $0.append((read, DispatchTime.now().uptimeNanoseconds)) }
                    if read == .rowsOlder, holdWindows.load(ordering: .acquiring) { usleep(UInt32(windowMillis) * 1_000) }
                })
            },
            countDebounce: 0)
        controller.start()
        try controller.settle(timeout: 30)
        reads.withLock { $0 = [] }
        holdWindows.store(true, ordering: .releasing)

        try publishNumbered(2, with: writer)
        controller.reloadAfterOwnCommit()
        _ = controller.drain()
        try controller.settle(timeout: 30)

        let seen = reads.withLock { $0 }
        let window = try #require(seen.first { $0.read == .rowsOlder }, "the reload read no rows: \(seen.map(\.read))")
        let counts = try #require(seen.first { $0.read == .statusCounts || $0.read == .statusCountsUpTo },
                                  "the reload counted nothing: \(seen.map(\.read))")
        #expect(counts.atNanos >= window.atNanos + UInt64(windowMillis) * 1_000_000,
                "counts started \((Int64(counts.atNanos) - Int64(window.atNanos)) / 1_000_000) ms after the rows' read began")
        #expect(controller.state.window.first?.taskID == "T-2")
    }
}
