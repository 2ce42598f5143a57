import CSQLite
import Foundation
import TestSupport
import Testing
import TimelineCore
@testable import TimelineStore

@Suite("Storage failures: classified, explained, and foreign files left alone")
struct StorageProblemTests {
    @Test func everyResultCodeAUserCanMeetHasAMeaningAndARemedy() {
        let table: [(Int32, Int32, StorageProblem)] = [
            (SQLITE_FULL, SQLITE_FULL, .full),
            (SQLITE_IOERR, 4874, .sharedMemoryFull),  // SQLITE_IOERR_SHMSIZE
            (SQLITE_READONLY, SQLITE_READONLY, .readOnly),
            (SQLITE_READONLY, 1032, .readOnly),  // SQLITE_READONLY_DBMOVED
            (SQLITE_PERM, SQLITE_PERM, .readOnly),
            (SQLITE_BUSY, 517, .busy),  // SQLITE_BUSY_SNAPSHOT
            (SQLITE_LOCKED, SQLITE_LOCKED, .busy),
            (SQLITE_CORRUPT, 267, .corrupt),  // SQLITE_CORRUPT_VTAB
            (SQLITE_NOTADB, SQLITE_NOTADB, .corrupt),
            (SQLITE_IOERR, 778, .ioError),  // SQLITE_IOERR_WRITE
            (SQLITE_CANTOPEN, SQLITE_CANTOPEN, .cannotOpen),
        ]
        for (code, extended, expected) in table {
            #expect(StorageProblem(code: code, extendedCode: extended) == expected, "\(code)/\(extended)")
        }
        let shm = SQLiteError(code: SQLITE_IOERR, extendedCode: 4874, message: "disk I/O error",
                              sql: "PRAGMA synchronous = NORMAL")
        #expect(shm.description.contains("shared-memory"), "\(shm.description)")
        #expect(shm.description.contains("Free space"))
        #expect(shm.description.contains("4874"))
        let full = SQLiteError(code: SQLITE_FULL, message: "database or disk is full")
        #expect(full.explanation.hasPrefix("database or disk is full: the disk"), "\(full.explanation)")
    }

    @Test func writingThroughAReadOnlyConnectionSaysReadOnlyNotBusy() throws {
        let fixture = try StoreFixture()
        let readOnly = try TimelineStore(path: fixture.path, readOnly: true)
        do {
            _ = try readOnly.ingestEvents([makeEvent("a", task: "A", second: 1)])
            Issue.record("a read-only connection committed")
        } catch let error as SQLiteError {
            #expect(error.problem == .readOnly)
            #expect(!error.isBusy)
            #expect(error.description.contains("attempt to write a readonly database"), "\(error)")
            #expect(error.description.contains("writable"))
        }
    }

    @Test func anotherProgramsSQLiteFileIsRefusedAndNeverModified() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("other.db")
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada');")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        for readOnly in [false, true] {
            do {
                _ = try TimelineStore(path: path, readOnly: readOnly)
                Issue.record("opened another program's database (readOnly: \(readOnly))")
            } catch let error as StoreError {
                guard case .notATimelineDatabase(_, let tables) = error else {
                    Issue.record("wrong error: \(error)")
                    continue
                }
                #expect(tables == ["contacts"])
                #expect(error.description.contains("not a timeline database"))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "the file was modified")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// A log beside a database counts only on a read-only file system (there `Tests/e2e` mounts one): on a
    /// writable one SQLite makes the -shm itself, and a failed open keeps SQLite's own explanation.
    @Test func aLogBesideADatabaseOnAWritableFileSystemIsNotTheReadOnlyCase() throws {
        let fixture = try StoreFixture()
        let path = fixture.path
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: Data()))
        try? FileManager.default.removeItem(atPath: path + "-shm")
        #expect(!LeftWriteAheadLog.blocksOpening(path))
        #expect(!LeftWriteAheadLog.blocksOpening(path + ".missing"))
        let message = StoreError.logLeftOnReadOnlyFileSystem(path: "/snap/t\u{1B}[2J.db").description
        #expect(message.contains(".db cannot be opened: its file system is read-only"))
        #expect(!message.contains("\u{1B}"), "the path reaches the terminal escaped")
    }
}
