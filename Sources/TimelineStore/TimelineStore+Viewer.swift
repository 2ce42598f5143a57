extension TimelineStore {
    /// A connection for a viewer's lanes: writable (read marks go through it) but with a read-only
    /// connection's small page cache: the lanes' counts scan whole indexes, and a bigger cache would only
    /// grow the viewer's memory with the history (the TUI held 4 MiB per lane with 1,000,000 events).
    public static func viewer(path: String) throws -> TimelineStore {
        let store = try TimelineStore(path: path)
        try store.locked { try store.db.execute("PRAGMA cache_size = \(readerPageCacheKiB)") }
        return store
    }

    /// The connection's `PRAGMA cache_size` (negative: KiB).
    public func pageCacheSetting() throws -> Int64 {
        try locked { try db.scalarInt("PRAGMA cache_size") }
    }
}
