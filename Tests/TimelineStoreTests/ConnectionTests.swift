import Foundation
import Testing
import TestSupport
import TimelineCore
@testable import TimelineStore

@Suite("TimelineStore connections and schema")
struct ConnectionTests {
    @Test func newFileIsPrivateAndMigrated() throws {
        let fixture = try StoreFixture()
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try fixture.store.db.userVersion() == Schema.latestVersion)
        #expect(try fixture.store.db.scalarString("PRAGMA journal_mode") == "wal")
        _ = try fixture.store.ingestEvents([makeEvent("a", task: "A", second: 1)])
        for suffix in ["-wal", "-shm"] {
            let mode = try FileManager.default.attributesOfItem(atPath: fixture.path + suffix)[.posixPermissions]
            #expect((mode as? NSNumber)?.intValue == 0o600, "\(suffix)")
        }
    }

    @Test func migratesAnExistingEmptyFileAndReopensWithData() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("empty.db")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        do {
            let store = try TimelineStore(path: path)
            #expect(try store.db.userVersion() == Schema.latestVersion)
            _ = try store.ingestEvents([makeEvent("a", task: "A", second: 1)])
        }
        let reopened = try TimelineStore(path: path)
        #expect(try reopened.db.userVersion() == Schema.latestVersion)
        #expect(try reopened.row(taskID: "A")?.event.id == "a")
        #expect(try reopened.stats().events == 1)
        let readOnly = try TimelineStore(path: path, readOnly: true)
        #expect(try readOnly.row(taskID: "A")?.event.id == "a")
    }

    @Test func refusesAFileFromTheFutureAndAnUnmigratedOneReadOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("x.db")
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.schemaTooNew(found: 99, supported: Schema.latestVersion)) {
            try TimelineStore(path: path)
        }
        let fresh = directory.file("fresh.db")
        _ = try Database(path: fresh, mode: .readWriteCreate)
        #expect(throws: StoreError.schemaNotReady(found: 0, needed: Schema.latestVersion)) {
            try TimelineStore(path: fresh, readOnly: true)
        }
        #expect(throws: SQLiteError.self) { try TimelineStore(path: directory.file("missing.db"), readOnly: true) }
    }

    @Test func changeTokenNoticesOwnAndOtherConnectionsWrites() throws {
        let fixture = try StoreFixture()
        let reader = try fixture.secondConnection(readOnly: true)
        let readerToken = try reader.changeToken()
        let writerToken = try fixture.store.changeToken()
        #expect(try reader.changeToken() == readerToken)

        _ = try fixture.store.ingestEvents([makeEvent("a", task: "A", second: 1)])
        #expect(try fixture.store.changeToken() != writerToken)
        let afterFirst = try reader.changeToken()
        #expect(afterFirst != readerToken)
        #expect(try reader.row(taskID: "A")?.event.id == "a")

        _ = try fixture.store.ingest([.rejected(rawBody: "x", messageID: nil, reason: "bad")])
        #expect(try reader.changeToken() != afterFirst)
    }

    @Test func readerOnAnotherConnectionReadsWhileOneWrites() throws {
        let fixture = try StoreFixture()
        let path = fixture.path
        _ = try fixture.store.ingestEvents([makeEvent("seed", task: "seed", second: 0)])
        let batches = 200

        // A writer thread with its own connection, like `timeline poll` in another process. A thread of its
        // own, not a task: a task could wait behind busy tests on the cooperative pool for the whole minute.
        let writerDone = DispatchSemaphore(value: 0)
        let writerError = WriterError()
        Thread {
            defer { writerDone.signal() }
            do {
                let store = try TimelineStore(path: path)
                for batch in 0..<batches {
                    let events = (0..<5).map { makeEvent("w\(batch)-\($0)", task: "T\($0)", second: Int64(batch)) }
                    _ = try store.ingestEvents(events)
                }
            } catch {
                writerError.set(error)
            }
        }.start()
        // A reader on a third connection keeps reading consistent windows meanwhile.
        let reader = try TimelineStore(path: path, readOnly: true)
        var reads = 0
        var lastToken = try reader.changeToken()
        var tokenChanges = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let rows = try reader.rows(matching: TimelineQuery(), olderThan: nil, limit: 10)
            #expect(!rows.isEmpty)
            #expect(rows.map(\.key) == rows.map(\.key).sorted(by: >))
            let token = try reader.changeToken()
            if token != lastToken { tokenChanges += 1; lastToken = token }
            reads += 1
            if try reader.stats().events == 1 + batches * 5 { break }
        }
        writerDone.wait()
        if let error = writerError.value { throw error }
        #expect(reads > 0)
        #expect(tokenChanges > 0)
        let final = try reader.allRows()
        #expect(final.count == 6)
        #expect(final.first?.event.id == "w\(batches - 1)-4")
        #expect(try reader.row(taskID: "T2")?.eventCount == batches)
    }

    @Test func sharedInstanceIsSafeAcrossThreads() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for n in 0..<50 {
                        _ = try store.ingestEvents([makeEvent("\(worker)-\(n)", task: "W\(worker)", second: Int64(n))])
                        _ = try store.rows(matching: TimelineQuery(), olderThan: nil, limit: 5)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.stats().events == 200)
        #expect(try store.allRows().map(\.eventCount) == [50, 50, 50, 50])
    }
}

@Suite("TimelineStore migrations")
struct MigrationTests {
    @Test func version1FileWithDataMigratesForward() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v1.db")
        do {
            // Build a version-1 file and fill it the way version 1 did (index entry per timeline row).
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("PRAGMA journal_mode = WAL")
            try Schema.migrate(db, upTo: 1)
            #expect(try db.userVersion() == 1)
            try db.execute("""
                INSERT INTO events (seq, id, agent_id, task_id, title, body, status, category, ts_us, progress,
                                    raw_json, message_id, received_us)
                VALUES (7, 'old-1', 'builder', 'T1', 'Nightly deploy', '', 'success', 'deploy', 1000, NULL, '{}', NULL, 5);
                INSERT INTO timeline (task_id, seq, ts_us, status, agent_id, category, event_count)
                VALUES ('T1', 7, 1000, 'success', 'builder', 'deploy', 1);
                INSERT INTO search (rowid, title, body, agent_id, task_id, category)
                VALUES (1, 'Nightly deploy', '', 'builder', 'T1', 'deploy');
                """)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.searchIndexBacklog() == 0)
        #expect(try store.count(matching: TimelineQuery(terms: ["NIGHTLY"])) == 1)
        #expect(try store.ingestEvents([makeEvent("new", task: "T1", second: 1, title: "Rollback")]) == [.replaced])
        #expect(try store.count(matching: TimelineQuery(terms: ["nightly"])) == 0)
        #expect(try store.count(matching: TimelineQuery(terms: ["rollback"])) == 1)
        #expect(try store.history(taskID: "T1", limit: 5).map(\.id) == ["new", "old-1"])
    }

    @Test func version2FileWithDataMigratesToCompactEventIndexes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v2.db")
        do {
            // A version-2 file written through version 2's own SQL: two tasks, one with an older event.
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("PRAGMA journal_mode = WAL")
            try Schema.migrate(db, upTo: 2)
            #expect(try db.userVersion() == 2)
            try db.execute("""
                INSERT INTO events (seq, id, agent_id, task_id, title, body, status, category, ts_us, progress,
                                    raw_json, message_id, received_us)
                VALUES (1, 'a-new', 'builder', 'TA', 'Deploy api', 'body a', 'success', 'deploy', 2000, NULL, '{"x":1}', 'm1', 5),
                       (2, 'a-old', 'builder', 'TA', 'Deploy api early', '', 'in_progress', 'deploy', 1000, 40, '{}', NULL, 6),
                       (3, 'b-1', 'tester', 'TB', 'Run tests', '', 'error', NULL, 1500, NULL, '{}', NULL, 7);
                INSERT INTO timeline (row_id, task_id, seq, ts_us, status, agent_id, category, event_count, indexed_seq)
                VALUES (1, 'TA', 1, 2000, 'success', 'builder', 'deploy', 2, 1),
                       (2, 'TB', 3, 1500, 'error', 'tester', NULL, 1, 3);
                INSERT INTO search (rowid, title, body, agent_id, task_id, category)
                VALUES (1, 'Deploy api', 'body a', 'builder', 'TA', 'deploy'), (2, 'Run tests', '', 'tester', 'TB', NULL);
                """)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        #expect(try store.db.scalarInt("SELECT count(*) FROM events WHERE id_key = tl_id_key(id)") == 3)
        #expect(try store.db.scalarInt("SELECT task_row FROM events WHERE id = 'a-old'") == 1)
        #expect(try store.db.scalarInt("SELECT task_row FROM events WHERE id = 'b-1'") == 2)
        // Every stored event keeps its fields and arrival sequence; history still comes newest first.
        let history = try store.history(taskID: "TA", limit: 10)
        #expect(history.map(\.id) == ["a-new", "a-old"])
        #expect(history.last?.progress == 40)
        #expect(try store.allRows().map(\.event.id) == ["a-new", "b-1"])
        // Ingest after the migration: duplicates are still found, older events kept, new tasks get new rows.
        let outcomes = try store.ingestEvents([
            makeEvent("a-old", task: "TA", second: 9), makeEvent("b-1", task: "TB", second: 9),
            makeEvent("c-1", task: "TC", second: 1), makeEvent("b-2", task: "TB", second: -1_800_000_000),
        ])
        #expect(outcomes == [.duplicate, .duplicate, .inserted, .keptOlder])
        #expect(try store.db.scalarInt("SELECT row_id FROM timeline WHERE task_id = 'TC'") == 3)
        #expect(try store.history(taskID: "TB", limit: 10).map(\.id) == ["b-1", "b-2"])
        #expect(try store.count(matching: TimelineQuery(terms: ["deploy"])) == 1)
        #expect(try store.stats().events == 5)
    }

    @Test func version3FileMigratesToQueueDelivery() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("v3.db")
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.execute("PRAGMA journal_mode = WAL")
            try db.registerEventIDKey()
            try Schema.migrate(db, upTo: 3)
            #expect(try db.userVersion() == 3)
            try db.execute("""
                INSERT INTO events (seq, id_key, task_row, id, agent_id, task_id, title, body, status, category, ts_us,
                                    progress, raw_json, message_id, received_us)
                VALUES (1, tl_id_key('before'), 1, 'before', 'a', 'T', 'old', '', 'info', NULL, 1000000, NULL, '{}', 'm0', 5);
                INSERT INTO timeline (row_id, task_id, seq, ts_us, status, agent_id, category, event_count, indexed_seq)
                VALUES (1, 'T', 1, 1000000, 'info', 'a', NULL, 1, NULL);
                """)
        }
        let store = try TimelineStore(path: path)
        #expect(try store.db.userVersion() == Schema.latestVersion)
        // Events stored before have no delivery; new ones keep theirs.
        #expect(try store.history(taskID: "T", limit: 5).first?.delivery == nil)
        var event = makeEvent("after", task: "T", second: 2)
        event.delivery = QueueDelivery(sentMicros: 1_000_000, receiveCount: 3)
        #expect(try store.ingest([.event(event, messageID: "m")]) == [.replaced])
        let row = try #require(try store.row(taskID: "T"))
        #expect(row.event.delivery == QueueDelivery(sentMicros: 1_000_000, receiveCount: 3))
        #expect(row.event.delivery?.isFlagged == true)
        #expect(try store.history(taskID: "T", limit: 5).map(\.delivery) == [event.delivery, nil])
    }

    @Test func eventsWhoseIDKeysCollideAreBothKept() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        #expect(try store.ingestEvents([makeEvent("first", task: "T", second: 1)]) == [.inserted])
        // Give the stored event the key the next id will have: a forced collision.
        let key = EventIDKey.key("second")
        try store.db.execute("""
            UPDATE event_ids_recent SET id_key = \(key) WHERE seq = (SELECT seq FROM events WHERE id = 'first');
            UPDATE event_ids SET id_key = \(key) WHERE seq = (SELECT seq FROM events WHERE id = 'first');
            UPDATE events SET id_key = \(key) WHERE id = 'first';
            """)
        #expect(try store.db.scalarInt("SELECT (SELECT count(*) FROM event_ids_recent WHERE id_key = \(key))"
                                        + " + (SELECT count(*) FROM event_ids WHERE id_key = \(key))") == 1)
        #expect(try store.ingestEvents([makeEvent("second", task: "T", second: 2)]) == [.replaced])
        #expect(try store.ingestEvents([makeEvent("second", task: "T", second: 3)]) == [.duplicate])
        #expect(try store.stats().events == 2)
        #expect(try store.history(taskID: "T", limit: 5).map(\.id) == ["second", "first"])
    }
}

/// The writer thread's failure, read after it ends.
private final class WriterError: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?
    var value: Error? { lock.withLock { error } }
    func set(_ error: Error) { lock.withLock { self.error = error } }
}
