import CSQLite
import Foundation
import Testing
@testable import TimelineStore

/// SQLite's process-wide settings are taken before its first connection (SQLite refuses them after).
@Suite struct SQLiteProcessSettingsTests {
    @Test func theStatementJournalSettingIsTakenBeforeAnyConnectionOpens() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try TimelineStore(path: directory.appendingPathComponent("t.db").path)
        #expect(SQLiteProcessSettings.applied, "a connection opened before the setting: SQLite refused it")
        #expect(SQLiteProcessSettings.statementJournalSpillBytes > 64 * 1_024, "more than SQLite's default")
    }

    /// SQLite does not count its memory (the count locks a process-wide mutex at every allocation): with a
    /// connection open and a statement run, the count it keeps is still nothing.
    @Test func sqliteKeepsNoMemoryStatistics() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TimelineStore(path: directory.appendingPathComponent("t.db").path)
        #expect(try store.stats().events == 0)
        #expect(SQLiteProcessSettings.applied)
        #expect(sqlite3_memory_used() == 0, "SQLite counted \(sqlite3_memory_used()) bytes")
    }

    /// A statement in a transaction that changes far more pages than the in-memory journal holds (a prune's
    /// delete of thousands of tasks) spills its journal to a file, and that must work: a spill of more than
    /// SQLite's file layer writes at once failed with "database or disk is full".
    @Test func aStatementWhoseJournalSpillsStillCommits() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try TimelineStore(path: directory.appendingPathComponent("t.db").path).db
        try db.execute("""
            CREATE TABLE spill (n INTEGER PRIMARY KEY, body TEXT NOT NULL CHECK (length(body) > 0));
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000)
            INSERT INTO spill SELECT x, hex(randomblob(100)) FROM c;
            """)
        let pages = try db.scalarInt("PRAGMA page_count")
        #expect(pages * 8_192 > 4 * Int64(SQLiteProcessSettings.statementJournalSpillBytes), "the update spills")
        try db.transaction { try db.execute("UPDATE spill SET body = body || 'x'") }
        #expect(try db.scalarInt("SELECT count(*) FROM spill WHERE body LIKE '%x'") == 50_000)
    }
}
