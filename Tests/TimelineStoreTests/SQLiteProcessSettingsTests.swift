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
        #expect(SQLiteProcessSettings.statementJournalSpillBytes >= 64 * 4_096,
                "one statement's pages (a task row's upsert: ~16-20) stay in memory")
    }
}
