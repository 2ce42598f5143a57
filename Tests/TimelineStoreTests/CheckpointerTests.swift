import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

/// WAL checkpoints run on the background `Checkpointer`, not on the thread that commits a batch.
/// Serialized: two tests set `Checkpointer.bulkWalPagesLimit`.
@Suite("Checkpointer", .serialized)
struct CheckpointerTests {
    @Test func aWALPastTheThresholdIsCheckpointedInTheBackground() throws {
        let fixture = try StoreFixture()
        let checkpointer = Checkpointer.shared(path: fixture.path)
        let before = checkpointer.completedCount
        // Large bodies fill the WAL past the threshold (1,000 pages of 8 KiB) within a few batches.
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

    /// A bulk import keeps the background checkpoints (the WAL does not grow by the whole import, but by up
    /// to `bulkWalPagesLimit`, set lower here so a small import can show the bound), `flushSearchIndex` leaves
    /// the WAL empty with every event readable and searchable, and the connection's normal settings return.
    @Test func aBulkImportIsCheckpointedAsItGoesAndEndsWithAnEmptyWAL() throws {
        let limit: Int32 = 4_096
        Checkpointer.bulkWalPagesLimit.store(limit, ordering: .relaxed)
        defer { Checkpointer.bulkWalPagesLimit.store(Checkpointer.bulkWalPages, ordering: .relaxed) }
        let fixture = try StoreFixture()
        let checkpointer = Checkpointer.shared(path: fixture.path)
        let before = checkpointer.completedCount
        let body = String(repeating: "bulk import body ", count: 200)
        var n = 0
        var largestWAL: Int64 = 0
        let deadline = Date().addingTimeInterval(60)
        // Batches of ~1,000 pages each, back to back: without a bound the WAL would hold all 60 of them. All 60
        // are imported however slow the machine (the bound below needs them); the deadline only ends waiting
        // for a first background checkpoint.
        while n < 120_000 || (checkpointer.completedCount == before && Date() < deadline) {
            let batch = (0..<2_000).map { _ -> IngestItem in
                n += 1
                return .event(makeEvent("b\(n)", task: "task-\(n % 3_000)", second: Int64(n), body: body), messageID: nil)
            }
            try fixture.store.ingest(batch, deferSearchIndex: true)
            largestWAL = max(largestWAL, TimelineStore.fileSize(fixture.path + "-wal"))
        }
        #expect(checkpointer.completedCount > before, "the background thread checkpointed during the import")
        try fixture.store.flushSearchIndex()
        #expect(TimelineStore.fileSize(fixture.path + "-wal") == 0, "the import ended with an empty WAL")
        // Bounded by the limit plus about a batch, far from the import's whole size.
        let imported = Int64(n * body.utf8.count)
        let bound = Int64(limit) * Int64(TimelineStore.pageSize) + imported / 10
        #expect(largestWAL > 0 && largestWAL < bound && bound < imported / 2,
                "largest WAL \(largestWAL) bytes (bound \(bound)) for \(imported) bytes imported")
        #expect(try fixture.store.stats().events == n, "nothing lost")
        #expect(try fixture.store.searchIndexBacklog() == 0)
        #expect(try fixture.store.count(matching: TimelineQuery.parse("b\(n)")) == 1, "the last event is searchable")
        #expect(try fixture.store.db.scalarString("PRAGMA integrity_check") == "ok")
        // Between bulk writes the WAL file is cut back again and the page cache is the normal one.
        #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == Int64(TimelineStore.walFileLimitBytes))
        #expect(try fixture.store.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.pageCacheKiB))
    }

    /// While a bulk write runs the WAL file keeps its size (`journal_size_limit` -1); afterwards the normal
    /// limit is back. (Needs `bulkWALRoomBytes` free beside the test's files, 2 GiB: it says so otherwise.)
    @Test func bulkSettingsLastOnlyAsLongAsTheBulkWrite() throws {
        let fixture = try StoreFixture()
        let free = try #require(TimelineStore.freeBytes(beside: fixture.path))
        try #require(free >= TimelineStore.bulkWALRoomBytes, "only \(free) bytes free beside \(fixture.path)")
        try fixture.store.locked { try fixture.store.useBulkSettings() }
        #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == -1)
        #expect(try fixture.store.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.bulkImportPageCacheKiB))
        fixture.store.locked { fixture.store.restoreNormalSettings() }
        #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == Int64(TimelineStore.walFileLimitBytes))
        #expect(try fixture.store.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.pageCacheKiB))
    }

    /// `bulkWrite` holds the bulk settings across the batches and the search index flush inside it (each
    /// alone would put the normal page cache back, and with it let go of the indexes' pages); the normal
    /// ones are back when it returns, and when it throws.
    @Test func aBulkWriteHoldsTheBulkSettingsBetweenItsBatches() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        func cacheSize() throws -> Int64 { try store.locked { try store.db.scalarInt("PRAGMA cache_size") } }
        try store.bulkWrite {
            for batch in 0..<3 {
                try store.ingest([.event(makeEvent("e\(batch)", task: "T", second: Int64(batch)), messageID: nil)],
                                 deferSearchIndex: true)
                #expect(try cacheSize() == Int64(TimelineStore.bulkImportPageCacheKiB))
            }
            try store.flushSearchIndex()
            #expect(try cacheSize() == Int64(TimelineStore.bulkImportPageCacheKiB))
        }
        #expect(try cacheSize() == Int64(TimelineStore.pageCacheKiB))
        struct Stop: Error {}
        #expect(throws: Stop.self) { try store.bulkWrite { throw Stop() } }
        #expect(try cacheSize() == Int64(TimelineStore.pageCacheKiB))
        #expect(store.locked { store.bulkWritesUnderWay } == 0)
        // Alone, a batch still ends with the normal settings.
        try store.ingest([.event(makeEvent("e9", task: "T", second: 9), messageID: nil)], deferSearchIndex: true)
        #expect(try cacheSize() == Int64(TimelineStore.pageCacheKiB))
    }

    /// Without `bulkWALRoomBytes` free beside the file, a bulk write keeps the normal WAL settings (the larger
    /// WAL must not make an import fail on a disk it fitted before); it still takes the bulk page cache.
    @Test func theBulkWALNeedsRoomOnTheDisk() throws {
        #expect(TimelineStore.bulkWALRoomBytes == 512 << 20, "4 × the 128 MiB limit")
        let fixture = try StoreFixture()
        #expect(try #require(TimelineStore.freeBytes(beside: fixture.path)) > 0)
        #expect(TimelineStore.freeBytes(beside: "/no/such/directory/file.db") == nil)
        for free: Int64 in [0, TimelineStore.bulkWALRoomBytes - 1] {
            try fixture.store.locked { try fixture.store.useBulkSettings(freeBytes: free) }
            #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == Int64(TimelineStore.walFileLimitBytes))
            #expect(try fixture.store.db.scalarInt("PRAGMA cache_size") == Int64(TimelineStore.bulkImportPageCacheKiB))
            fixture.store.locked { fixture.store.restoreNormalSettings() }
        }
        try fixture.store.locked { try fixture.store.useBulkSettings(freeBytes: TimelineStore.bulkWALRoomBytes) }
        #expect(try fixture.store.db.scalarInt("PRAGMA journal_size_limit") == -1)
        fixture.store.locked { fixture.store.restoreNormalSettings() }
    }

    /// In bulk mode the committing thread copies the WAL once a commit leaves `bulkWalPagesLimit` pages
    /// (set to 256 here): right after such a commit every frame is in the file. The commit stays under
    /// `walPagesThreshold`, so with the normal hook nothing would have copied it.
    @Test func aBulkCommitPastTheBulkLimitIsCopiedByTheCommittingThread() throws {
        Checkpointer.bulkWalPagesLimit.store(256, ordering: .relaxed)
        defer { Checkpointer.bulkWalPagesLimit.store(Checkpointer.bulkWalPages, ordering: .relaxed) }
        let fixture = try StoreFixture()
        let body = String(repeating: "bulk ", count: 600)
        let batch = (0..<1_500).map { n in
            IngestItem.event(makeEvent("w\(n)", task: "task-\(n % 50)", second: Int64(n), body: body), messageID: nil)
        }
        try fixture.store.ingest(batch, deferSearchIndex: true)
        let (frames, backfilled) = try Self.walIndexFrames(fixture.path + "-shm")
        #expect(frames >= 256 && frames < Checkpointer.walPagesThreshold, "the commit wrote \(frames) frames")
        #expect(backfilled == frames, "copied by the committing thread: \(backfilled) of \(frames)")
    }

    /// The WAL's frames and how many of them are in the database file, from the wal-index header in the
    /// `-shm` file (`mxFrame` at byte 16, `nBackfill` at byte 96, native byte order:
    /// https://sqlite.org/walformat.html).
    static func walIndexFrames(_ shmPath: String) throws -> (frames: UInt32, backfilled: UInt32) {
        let header = try #require(FileHandle(forReadingAtPath: shmPath)).readData(ofLength: 100)
        func word(at offset: Int) -> UInt32 { header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } }
        return (word(at: 16), word(at: 96))
    }

    @Test func upkeepThreadsRunNicerThanTheProcess() throws {
        let fixture = try StoreFixture()
        errno = 0
        let processNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        try #require(errno == 0)
        let seen = Locked<Int32?>(nil)
        let name = Locked<String?>(nil)
        let job = BackgroundJob.shared(name: "nice-probe", path: fixture.path) { _ in
            seen.withValue { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            name.withValue { $0 = ThreadName.ofThisThread() }
            return false
        }
        job.request()
        let deadline = Date().addingTimeInterval(10)
        while job.completedCount == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(seen.current == min(19, processNice + BackgroundJob.niceIncrement))
        #expect(name.current == "tl-nice-probe", "the job's thread is named for ps, top and perf")
        // The calling thread keeps its own priority.
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == processNice)
    }
}
