import Foundation
import Testing
import TimelineCore
@testable import TimelineStore

/// WAL checkpoints run on the background `Checkpointer`, not on the thread that commits a batch.
@Suite("Checkpointer")
struct CheckpointerTests {
    @Test func aWALPastTheThresholdIsCheckpointedInTheBackground() throws {
        let fixture = try StoreFixture()
        let checkpointer = Checkpointer.shared(path: fixture.path)
        let before = checkpointer.completedCount
        // Large bodies fill the WAL past the threshold (1,000 pages of 16 KiB) within a few batches.
        let body = String(repeating: "checkpoint me ", count: 300)
        var n = 0
        let deadline = Date().addingTimeInterval(60)
        while checkpointer.completedCount == before && Date() < deadline {
            let batch = (0..<100).map { _ -> Event in
                n += 1
                return makeEvent("c\(n)", task: "task-\(n)", second: Int64(n), body: body)
            }
            try fixture.store.ingestEvents(batch)
        }
        #expect(checkpointer.completedCount > before, "the background thread ran a checkpoint")
        // The committing connection does not checkpoint by itself: SQLite's autocheckpoint is off on it.
        #expect(try fixture.store.db.scalarInt("PRAGMA wal_autocheckpoint") == 0)
        #expect(try fixture.store.count(matching: TimelineQuery()) == n, "nothing lost")
    }
}
