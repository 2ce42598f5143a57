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
private func slowWindowReader(store: TimelineStore, windowMillis: Int) -> ForwardingReader {
    ForwardingReader(store, before: { read, _, isCancelled in
        guard read == .rowsOlder else { return }
        for _ in 0..<windowMillis {
            if isCancelled?() == true { throw ReadCancelled() }
            usleep(1_000)
        }
    })
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
            try publishNumbered(published, with: writer)
        }
        try publish()
        let controller = TimelineController(state: AppState(width: 80, height: 12, nowMicros: fixedNow),
                                            makeReader: { slowWindowReader(store: try TimelineStore(path: path), windowMillis: 40) },
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
