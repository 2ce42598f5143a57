import CSQLite

/// What SQLite takes once per process, before its first connection opens.
enum SQLiteProcessSettings {
    /// Bytes of one statement's journal (the pages it changes, kept so the statement alone can be undone)
    /// held in memory before it spills to a temporary file. SQLite's default, 64 KiB, is 16 pages: an
    /// upsert of a task's timeline row touches about that many (its indexes, the triggers' tables), and
    /// once one statement spills, the journal stays a file until the transaction ends, so every later
    /// statement of a large batch wrote its pages there too (about 8 KiB per event stored). 1 MiB holds
    /// any one-row statement; only statements that change hundreds of pages (a prune's deletes) spill.
    static let statementJournalSpillBytes: Int32 = 1 << 20

    /// Whether SQLite took the settings (they are applied on first use; SQLite refuses them once a
    /// connection was opened in this process).
    static let applied: Bool = tl_sqlite_config_statement_journal_spill(statementJournalSpillBytes) == SQLITE_OK
}
