/// The index that finds a stored event by its id (`EventIDKey` keys), in two levels (schema 15).
///
/// Ids are random, so one index over every event took one insert at a random place per event: at
/// 10,000,000 events a bulk commit of 50,000 rewrote ~90 % of that index's pages, and 1,000,000 events into
/// such a file took 27 s where they took 12 s without the index. Now:
/// - `event_ids_recent` takes each new event's key; it holds the keys of about the last `cycleEvents`
///   events (of every event, in a file that has not had more), so its pages are few and a commit's
///   inserts share them;
/// - `event_ids` holds the rest. Each commit moves the recent keys of one slice of the key space into it
///   (`slice`), in key order: the slices follow the events' `seq`, so the whole key space is swept once
///   every `cycleEvents` events, and a commit of `n` events rewrites about `n / cycleEvents` of its pages.
///
/// A lookup reads both levels, so a key is found wherever it is, also halfway through a sweep. Both are
/// `(id_key, seq)` tables the write paths keep (`addKeys`, `move`, `removeSQL`, `rebuild`); the
/// `events.id_key` column names each event's entry.
enum EventIDIndex {
    /// Events whose keys make one sweep of the key space: the most keys the recent level holds.
    static let cycleEvents: Int64 = 1 << 20

    static let createTablesSQL = """
        CREATE TABLE event_ids (
            id_key INTEGER NOT NULL,
            seq    INTEGER NOT NULL,
            PRIMARY KEY (id_key, seq)
        ) WITHOUT ROWID;
        CREATE TABLE event_ids_recent (
            id_key INTEGER NOT NULL,
            seq    INTEGER NOT NULL,
            PRIMARY KEY (id_key, seq)
        ) WITHOUT ROWID;
        """

    /// `SELECT` of `columns` (of `events e`) for the events whose id is `?2` and key `?1`, at most one row.
    /// The key finds candidates in both levels; the full id decides (keys of different ids may collide).
    static func findSQL(columns: String) -> String {
        """
        SELECT \(columns) FROM event_ids_recent k JOIN events e ON e.seq = k.seq WHERE k.id_key = ?1 AND e.id = ?2
        UNION ALL
        SELECT \(columns) FROM event_ids k JOIN events e ON e.seq = k.seq WHERE k.id_key = ?1 AND e.id = ?2
        LIMIT 1
        """
    }

    /// Which of `keys` either level holds, found by one statement: the per-key statement (`findSQL`) cost a
    /// bind, a step and a reset of two joined lookups for every key, where nearly every key of a bulk batch
    /// is new. The keys come as a JSON array (`JSONIntegers`); give them sorted, and each level's pages are read
    /// in turn. Only a key found here needs its full id compared.
    static func storedKeys(among keys: [Int64], in db: Database) throws -> Set<Int64> {
        if keys.isEmpty { return [] }
        // CROSS JOIN: the keys drive, each level is only searched (never scanned).
        let find = try db.cached("""
            SELECT k.id_key FROM json_each(?1) j CROSS JOIN event_ids_recent k ON k.id_key = j.value
            UNION ALL
            SELECT k.id_key FROM json_each(?1) j CROSS JOIN event_ids k ON k.id_key = j.value
            """)
        defer { find.reset() }
        try find.bind(JSONIntegers.array(keys), at: 1)
        var found = Set<Int64>()
        while try find.step() == .row { found.insert(find.int64(0)) }
        return found
    }

    /// Adds the keys of the events `first ... last` (one commit's new events) to the recent level: one
    /// statement, in key order.
    static func addKeys(ofEvents events: ClosedRange<Int64>, in db: Database) throws {
        try db.run("""
            INSERT INTO event_ids_recent (id_key, seq)
            SELECT id_key, seq FROM events WHERE seq BETWEEN ?1 AND ?2 ORDER BY id_key, seq
            """, [.integer(events.lowerBound), .integer(events.upperBound)])
    }

    /// The closed key ranges a commit that added the events after `afterSeq` up to `lastSeq` moves to the
    /// lower level: the part of the sweep those seqs stand for (all of it when they are a whole cycle).
    /// Sweeps start after the first cycle: until then the recent level holds every key, and is small.
    static func slice(afterSeq: Int64, lastSeq: Int64) -> [ClosedRange<Int64>] {
        let afterSeq = max(afterSeq, cycleEvents)
        guard lastSeq > afterSeq else { return [] }
        if lastSeq - afterSeq >= cycleEvents { return [Int64.min...Int64.max] }
        let from = position(afterSeq), to = position(lastSeq)
        if from < to { return [start(of: from)...(start(of: to) - 1)] }
        let tail = start(of: from)...Int64.max
        return to == 0 ? [tail] : [tail, Int64.min...(start(of: to) - 1)]
    }

    /// Moves the recent keys in `ranges` to the lower level (in key order: its pages are written in turn).
    static func move(_ ranges: [ClosedRange<Int64>], in db: Database) throws {
        for range in ranges {
            let bounds: [SQLiteValue] = [.integer(range.lowerBound), .integer(range.upperBound)]
            try db.run("""
                INSERT INTO event_ids (id_key, seq)
                SELECT id_key, seq FROM event_ids_recent WHERE id_key BETWEEN ?1 AND ?2 ORDER BY id_key, seq
                """, bounds)
            try db.run("DELETE FROM event_ids_recent WHERE id_key BETWEEN ?1 AND ?2", bounds)
        }
    }

    /// Statements that remove the entries of the events `eventsWhere` selects (SQL over `events`, with the
    /// caller's parameters): run them before those events are deleted.
    static func removeSQL(eventsWhere condition: String) -> [String] {
        ["event_ids_recent", "event_ids"].map { table in
            "DELETE FROM \(table) WHERE (id_key, seq) IN (SELECT id_key, seq FROM events WHERE \(condition))"
        }
    }

    /// Makes both levels again from the `events` table: every key in the lower level, written in order.
    static func rebuild(in db: Database) throws {
        try db.execute("""
            DELETE FROM event_ids_recent;
            DELETE FROM event_ids;
            INSERT INTO event_ids (id_key, seq) SELECT id_key, seq FROM events ORDER BY id_key, seq;
            """)
    }

    /// Where `seq` stands in the sweep: 0 ..< cycleEvents.
    private static func position(_ seq: Int64) -> Int64 {
        ((seq % cycleEvents) + cycleEvents) % cycleEvents
    }

    /// The first key of the sweep's `position`-th part (the key space in `cycleEvents` equal parts).
    private static func start(of position: Int64) -> Int64 {
        Int64.min &+ position &* partWidth
    }

    /// Keys per part of the sweep: 2^64 / cycleEvents (a power of two).
    private static let partWidth: Int64 = Int64(UInt64.max / UInt64(cycleEvents) + 1)
}
