import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

/// New files get `TimelineStore.pageSize`; a file made with another page size keeps it and works.
@Suite("Page size")
struct PageSizeTests {
    @Test func aNewFileHasEightKiBPages() throws {
        let fixture = try StoreFixture()
        #expect(TimelineStore.pageSize == 8_192)
        #expect(try fixture.store.db.scalarInt("PRAGMA page_size") == 8_192)
    }

    @Test func anOlderFileKeepsItsPageSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("old.db")
        do {
            // As releases before 0.13 made them: 16 KiB pages, WAL (the page size is fixed from here on).
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; CREATE TABLE scratch (x); DROP TABLE scratch")
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.scalarInt("PRAGMA page_size") == 16_384)
        try store.ingest([.event(makeEvent("e1", task: "t1", second: 1), messageID: nil)])
        #expect(try store.stats().events == 1)
    }
}
