import CSQLite

/// What SQLite takes once per process, before its first connection opens.
enum SQLiteProcessSettings {
    /// Bytes of one statement's journal (the pages it changes, kept so the statement alone can be undone)
    /// held in memory before it spills to a temporary file. SQLite's default, 64 KiB, is 7 pages of 8 KiB:
    /// once one statement spills, the journal stays a file until the transaction ends, so every later
    /// statement of a large batch wrote its pages there too (about 8 KiB per event stored).
    ///
    /// Not more than `largestSpillBytes`: at the spill SQLite writes what it holds in memory in one write,
    /// and its unix file layer writes at most that many bytes at once (it masks a larger count), so a
    /// larger setting turned every statement that spilled (a prune's deletes) into "database or disk is
    /// full".
    static let statementJournalSpillBytes: Int32 = largestSpillBytes

    /// The largest write SQLite's unix file layer makes in one call (`seekAndWriteFd` masks the count
    /// with 0x1ffff).
    static let largestSpillBytes: Int32 = 0x1ffff

    /// Whether SQLite counts the memory it allocates (`sqlite3_memory_used`, which nothing here reads). The
    /// count takes a process-wide mutex at every allocation and free: binding an event's text columns
    /// allocates, and the lock and unlock were a tenth of storing an event.
    static let keepsMemoryStatistics: Int32 = 0

    /// Whether SQLite took the settings (they are applied on first use; SQLite refuses them once a
    /// connection was opened in this process).
    static let applied: Bool = tl_sqlite_config_statement_journal_spill(statementJournalSpillBytes) == SQLITE_OK
        && tl_sqlite_config_memory_statistics(keepsMemoryStatistics) == SQLITE_OK
}
