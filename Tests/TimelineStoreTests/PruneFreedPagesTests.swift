import Foundation
import Testing
@testable import TimelineStore

@Suite("Prune: freed pages")
struct PruneFreedPagesTests {
    static func secureDelete(_ store: TimelineStore) throws -> Int64 {
        try store.locked { try store.db.scalarInt("PRAGMA secure_delete") }
    }

    /// A prune that rebuilds the file does not zero the pages it frees (the rebuild leaves them out of the
    /// file): secure delete is FAST during its transactions, and the connection's own setting is back after.
    /// A prune that keeps the file (retention) leaves the setting alone.
    @Test(arguments: [false, true], [Int64(0), 1])
    func freedPagesAreNotZeroedWhenTheFileIsRebuilt(reclaimSpace: Bool, setting: Int64) throws {
        let fixture = try StoreFixture()
        try PruneBatchesTests.fill(fixture.store)
        try fixture.store.locked { try fixture.store.db.execute("PRAGMA secure_delete = \(setting)") }
        var during: Set<Int64> = []
        var batching = PruneBatchesTests.tiny(copy: true)
        batching.afterEachBatch = { during.insert(try Self.secureDelete(fixture.store)) }
        _ = try fixture.store.prune(olderThan: PruneBatchesTests.micros(100), keepRunning: false,
                                    reclaimSpace: reclaimSpace, batching: batching)
        #expect(during == [reclaimSpace ? 2 : setting])
        #expect(try Self.secureDelete(fixture.store) == setting)
    }
}
