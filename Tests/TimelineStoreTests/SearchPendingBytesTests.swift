import Foundation
import Testing
@testable import TimelineStore

/// The full-text index holds a large transaction's new entries in memory up to `Schema.searchPendingBytes`
/// (FTS5's `hashsize`), in a new file and in one made before schema 17.
@Suite struct SearchPendingBytesTests {
    private static func pendingBytes(_ store: TimelineStore) throws -> Int64 {
        try store.locked { try store.db.scalarInt("SELECT v FROM search_config WHERE k = 'hashsize'") }
    }

    @Test func newAndMigratedFilesHoldALargeTransactionsEntriesInMemory() throws {
        let fixture = try StoreFixture()
        #expect(try Self.pendingBytes(fixture.store) == Int64(Schema.searchPendingBytes))
        #expect(Schema.searchPendingBytes > 1 << 20, "more than FTS5's default")
        try fixture.store.locked {
            try fixture.store.db.execute("DELETE FROM search_config WHERE k = 'hashsize'; PRAGMA user_version = 16")
        }
        #expect(try Self.pendingBytes(fixture.store) == 0, "FTS5's default: no row")
        let migrated = try TimelineStore(path: fixture.path)
        #expect(try migrated.locked { try migrated.db.userVersion() } == Schema.latestVersion)
        #expect(try Self.pendingBytes(migrated) == Int64(Schema.searchPendingBytes))
    }
}
