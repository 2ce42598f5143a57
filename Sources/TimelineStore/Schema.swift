import Foundation

/// The tokenizer the full-text index was created with.
public enum SearchTokenizer: String, Sendable {
    /// Substring search through trigrams (SQLite ≥ 3.34 built with FTS5).
    case trigram
    /// Word tokens only; substring terms then fall back to LIKE.
    case unicode61
}

/// Forward migrations, numbered by `PRAGMA user_version`.
///
/// Each step runs once, in order, inside the same IMMEDIATE transaction that reads `user_version`,
/// so two processes opening a new file at once cannot both migrate it.
enum Schema {
    /// One migration: brings the schema from `version - 1` to `version`.
    struct Migration: Sendable {
        var version: Int64
        var apply: @Sendable (Database) throws -> Void
    }

    static let migrations: [Migration] = [
        Migration(version: 1, apply: createVersion1),
        Migration(version: 2, apply: deferSearchIndexing),
        Migration(version: 3, apply: compactEventIndexes),
        Migration(version: 4, apply: keepQueueDelivery),
        Migration(version: 5, apply: addMarks),
        Migration(version: 6, apply: createReplies),
        Migration(version: 7, apply: addReadMarks),
        Migration(version: 8, apply: mergeSearchIndexInBackground),
        Migration(version: 9, apply: endIndexedValues),
        Migration(version: 10, apply: storePayloadOnce),
        Migration(version: 11, apply: keepTaskCounts),
        Migration(version: 12, apply: storeColumnsAndPayloadShapes),
        Migration(version: 13, apply: keepReadCounts),
        Migration(version: 14, apply: keepCountsWithoutTriggers),
        Migration(version: 15, apply: findEventIDsInTwoLevels),
        Migration(version: 16, apply: findWaitingRowsByStatus),
        Migration(version: 17, apply: indexLargeTransactionsInFewerSegments),
    ]

    static var latestVersion: Int64 { migrations.last?.version ?? 0 }

    /// Applies every migration newer than the file's `user_version` (up to `target`, for tests).
    static func migrate(_ db: Database, upTo target: Int64 = latestVersion) throws {
        if try db.userVersion() >= target { return }
        try db.transaction {
            let current = try db.userVersion()
            for migration in migrations where migration.version > current && migration.version <= target {
                try migration.apply(db)
                try db.execute("PRAGMA user_version = \(migration.version)")
            }
        }
    }

    /// Whether this SQLite library offers the FTS5 `trigram` tokenizer.
    static func trigramAvailable(_ db: Database) -> Bool {
        do {
            try db.execute("CREATE VIRTUAL TABLE temp.tl_trigram_probe USING fts5(x, tokenize='trigram')")
            try db.execute("DROP TABLE temp.tl_trigram_probe")
            return true
        } catch {
            return false
        }
    }

    private static func createVersion1(_ db: Database) throws {
        let tokenizer: SearchTokenizer = trigramAvailable(db) ? .trigram : .unicode61
        try db.execute("""
            CREATE TABLE meta (
                key   TEXT PRIMARY KEY,
                value TEXT NOT NULL
            ) WITHOUT ROWID;

            -- Every accepted event; seq is the arrival sequence (never reused: rows are never deleted).
            CREATE TABLE events (
                seq         INTEGER PRIMARY KEY,
                id          TEXT NOT NULL UNIQUE,
                agent_id    TEXT NOT NULL,
                task_id     TEXT NOT NULL,
                title       TEXT NOT NULL,
                body        TEXT NOT NULL,
                status      TEXT NOT NULL,
                category    TEXT,
                ts_us       INTEGER NOT NULL,
                progress    REAL,
                raw_json    TEXT NOT NULL,
                message_id  TEXT,
                received_us INTEGER NOT NULL
            );
            CREATE INDEX events_task_order ON events (task_id, ts_us DESC, seq DESC);

            -- One row per task: the winning event (greatest (ts_us, seq)). row_id is stable per task and
            -- is also the rowid of the task's entry in the full-text index.
            CREATE TABLE timeline (
                row_id      INTEGER PRIMARY KEY,
                task_id     TEXT NOT NULL UNIQUE,
                seq         INTEGER NOT NULL,
                ts_us       INTEGER NOT NULL,
                status      TEXT NOT NULL,
                agent_id    TEXT NOT NULL,
                category    TEXT,
                event_count INTEGER NOT NULL
            );
            CREATE INDEX timeline_order ON timeline (ts_us DESC, seq DESC);
            CREATE INDEX timeline_status_order ON timeline (status, ts_us DESC, seq DESC);
            CREATE INDEX timeline_agent ON timeline (agent_id);

            -- Messages that failed validation, kept with their exact bytes.
            CREATE TABLE rejected (
                seq         INTEGER PRIMARY KEY,
                raw_body    BLOB NOT NULL,
                message_id  TEXT,
                reason      TEXT NOT NULL,
                received_us INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX rejected_message ON rejected (message_id) WHERE message_id IS NOT NULL;

            -- Full-text index over the CURRENT timeline rows only (contentless: text lives in events).
            CREATE VIRTUAL TABLE search USING fts5 (
                title, body, agent_id, task_id, category,
                content = '', columnsize = 0, tokenize = '\(tokenizer.rawValue)'
            );
            """)
        try db.execute("INSERT INTO meta (key, value) VALUES ('search_tokenizer', '\(tokenizer.rawValue)')")
    }

    /// Version 2: the full-text index may trail the timeline (bulk imports index each task once, at the
    /// end, not once per event). `indexed_seq` is the event whose text the index holds for the row (NULL:
    /// none); rows where it differs from `seq` are found through a small partial index and searched with
    /// LIKE until they are indexed. Also drops two indexes that cost a write per event and served no query
    /// the order index cannot (agent filters are substrings; status filters scan the order index).
    private static func deferSearchIndexing(_ db: Database) throws {
        try db.execute("""
            ALTER TABLE timeline ADD COLUMN indexed_seq INTEGER;
            UPDATE timeline SET indexed_seq = seq;
            CREATE INDEX timeline_unindexed ON timeline (row_id) WHERE indexed_seq IS NOT seq;
            DROP INDEX timeline_agent;
            DROP INDEX timeline_status_order;
            DROP INDEX timeline_order;
            CREATE INDEX timeline_order ON timeline (ts_us DESC, seq DESC, status);
            """)
    }

    /// Version 3: smaller event indexes, so bulk imports stay fast as history grows (every insert lands
    /// at a random place in both indexes). The unique text index on `id` becomes an index on `id_key`, a
    /// 64-bit hash of the id (`EventIDKey`; ingest compares the full id on a hash match, so idempotency
    /// is unchanged), and the history index keys on `task_row`, the task's `timeline.row_id`, instead of
    /// the task id text. The table is rebuilt (SQLite cannot drop a UNIQUE constraint); `seq` is kept.
    private static func compactEventIndexes(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE events_v3 (
                seq         INTEGER PRIMARY KEY,
                id_key      INTEGER NOT NULL,
                task_row    INTEGER NOT NULL,
                id          TEXT NOT NULL,
                agent_id    TEXT NOT NULL,
                task_id     TEXT NOT NULL,
                title       TEXT NOT NULL,
                body        TEXT NOT NULL,
                status      TEXT NOT NULL,
                category    TEXT,
                ts_us       INTEGER NOT NULL,
                progress    REAL,
                raw_json    TEXT NOT NULL,
                message_id  TEXT,
                received_us INTEGER NOT NULL
            );
            INSERT INTO events_v3 (seq, id_key, task_row, id, agent_id, task_id, title, body, status, category,
                                   ts_us, progress, raw_json, message_id, received_us)
            SELECT e.seq, tl_id_key(e.id), t.row_id, e.id, e.agent_id, e.task_id, e.title, e.body, e.status,
                   e.category, e.ts_us, e.progress, e.raw_json, e.message_id, e.received_us
            FROM events e JOIN timeline t ON t.task_id = e.task_id
            ORDER BY e.seq;
            DROP TABLE events;
            ALTER TABLE events_v3 RENAME TO events;
            CREATE INDEX events_id_key ON events (id_key);
            CREATE INDEX events_task_order ON events (task_row, ts_us);
            """)
    }

    /// Version 4: how SQS delivered each event: `sent_us` (the message's `SentTimestamp`, for the queue
    /// delay) and `receive_count` (`ApproximateReceiveCount`; 3 or more is flagged). NULL for events
    /// stored before, and for imports.
    private static func keepQueueDelivery(_ db: Database) throws {
        try db.execute("""
            ALTER TABLE events ADD COLUMN sent_us INTEGER;
            ALTER TABLE events ADD COLUMN receive_count INTEGER;
            """)
    }

    /// Version 5 (marks): tasks the user marked (`m` in the TUI, `export --marked`), by task id so a mark
    /// outlives renumbering; `prune` removes the marks of tasks it deletes whole.
    private static func addMarks(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE marks (
                task_id   TEXT PRIMARY KEY,
                marked_us INTEGER NOT NULL
            ) WITHOUT ROWID;
            """)
    }

    /// Version 6 (human in the loop): the replies this viewer sent or tried to send, so they survive a
    /// restart. `state` is sending, sent or failed; `detail` the SQS message id, HTTP status or failure
    /// reason. A resend keeps the id (the agent's idempotency key) and updates state, detail and updated_us.
    private static func createReplies(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE replies (
                seq              INTEGER PRIMARY KEY,
                id               TEXT NOT NULL UNIQUE,
                in_reply_to      TEXT NOT NULL,
                task_id          TEXT NOT NULL,
                agent_id         TEXT NOT NULL,
                action           TEXT,
                text             TEXT,
                sender           TEXT NOT NULL,
                ts_us            INTEGER NOT NULL,
                label            TEXT,
                destination_kind TEXT NOT NULL,
                destination      TEXT NOT NULL,
                state            TEXT NOT NULL,
                detail           TEXT,
                updated_us       INTEGER NOT NULL
            );
            CREATE INDEX replies_task ON replies (task_id, ts_us);
            CREATE INDEX replies_event ON replies (in_reply_to);
            """)
    }

    /// Version 7 (attention): read state. `read_marks` holds, per task, the newest event the user
    /// has seen; `meta.read_all_seq` is the `U` (mark all read) watermark, seeded with the current newest
    /// event so a history that existed before this version does not all turn unread. A task is unread when
    /// its winning event is newer than both. `timeline_status_seq` makes the fleet counts (`timeline
    /// status`, the header, the terminal title) index range counts.
    private static func addReadMarks(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE read_marks (
                task_row INTEGER PRIMARY KEY,
                seq      INTEGER NOT NULL
            );
            INSERT OR REPLACE INTO meta (key, value)
                SELECT 'read_all_seq', CAST(COALESCE(MAX(seq), 0) AS TEXT) FROM events;
            CREATE INDEX timeline_status_seq ON timeline (status, seq);
            """)
    }

    /// Version 8 (ingest p99): full-text segments are merged by the background `SearchMerger`,
    /// never by a committing ingest (FTS5's automerge ran a merge of many pages inside some commits).
    /// `crisismerge` rises from 16 to 64: the bound on segments per level should that job not keep up.
    /// FTS5 keeps these settings in the index's own config table (`search_config`).
    private static func mergeSearchIndexInBackground(_ db: Database) throws {
        try db.execute("""
            INSERT INTO search (search, rank) VALUES ('automerge', 0);
            INSERT INTO search (search, rank) VALUES ('crisismerge', 64);
            """)
    }

    /// Version 9 (short non-ASCII terms): every indexed value ends with
    /// `SearchIndexer.valueEnd`, so one- and two-character terms are found through the index's vocabulary.
    /// The index is rebuilt from the events (a contentless index cannot be edited in place), once: 2.2 s
    /// for 300,000 tasks.
    private static func endIndexedValues(_ db: Database) throws {
        try db.execute("""
            INSERT INTO search (search) VALUES ('delete-all');
            UPDATE timeline SET indexed_seq = NULL WHERE indexed_seq IS NOT NULL;
            """)
        while try SearchIndexer(db: db).indexWaitingRows(limit: TimelineStore.searchIndexChunk) > 0 {}
    }

    /// The `events` table of version 10 (`PayloadColumns`): each payload stored once, in `raw_json`.
    static let eventsTableVersion10 = """
        seq           INTEGER PRIMARY KEY,
        id_key        INTEGER NOT NULL,
        task_row      INTEGER NOT NULL,
        ts_us         INTEGER NOT NULL,
        progress      REAL,
        received_us   INTEGER NOT NULL,
        message_id    TEXT,
        sent_us       INTEGER,
        receive_count INTEGER,
        raw_json      TEXT NOT NULL,
        \(PayloadColumns.definitions)
        """

    /// Version 10 (history at scale): every payload is stored once. The text fields were kept twice, as
    /// columns and inside `raw_json`; now they are generated columns read from `raw_json` (`PayloadColumns`),
    /// so the events table holds about the payload's own bytes. The table is rebuilt in `seq` order (`seq`
    /// kept), each field's value compared with the payload's and kept only where they differ.
    private static func storePayloadOnce(_ db: Database) throws {
        let fields = PayloadColumns.fields
        try db.execute("""
            CREATE TABLE events_v10 (
            \(eventsTableVersion10)
            );
            INSERT INTO events_v10 (seq, id_key, task_row, ts_us, progress, received_us, message_id, sent_us,
                                    receive_count, raw_json, \(fields.map(\.own).joined(separator: ", ")))
            SELECT seq, id_key, task_row, ts_us, progress, received_us, message_id, sent_us, receive_count, raw_json,
                   \(fields.map { PayloadColumns.ownValue($0, value: $0.name, raw: "raw_json") }.joined(separator: ",\n"))
            FROM events ORDER BY seq;
            DROP TABLE events;
            ALTER TABLE events_v10 RENAME TO events;
            CREATE INDEX events_id_key ON events (id_key);
            CREATE INDEX events_task_order ON events (task_row, ts_us);
            """)
    }

    /// Version 11 (counts at scale): timeline rows per status, kept (`TaskCounts`; by triggers until
    /// version 14, which has `KeptCounts` keep it). Counted here, so a file whose version was set back
    /// migrates again to exact counts.
    private static func keepTaskCounts(_ db: Database) throws {
        try db.execute(TaskCounts.createTableSQL + TaskCounts.recountSQL)
    }

    /// The `events` table of version 12: the known fields as columns, the payload as a template of what
    /// they do not hold (`PayloadTemplate`), shared through `payload_shapes` or kept in the row (`PayloadShapes`).
    static let eventsTableVersion12 = """
        seq              INTEGER PRIMARY KEY,
        id_key           INTEGER NOT NULL,
        task_row         INTEGER NOT NULL,
        ts_us            INTEGER NOT NULL,
        progress         REAL,
        received_us      INTEGER NOT NULL,
        message_id       TEXT,
        sent_us          INTEGER,
        receive_count    INTEGER,
        payload_shape    INTEGER,
        id               TEXT NOT NULL,
        agent_id         TEXT NOT NULL,
        task_id          TEXT NOT NULL,
        title            TEXT NOT NULL,
        body             TEXT NOT NULL,
        status           TEXT NOT NULL,
        category         TEXT,
        payload_template TEXT
        """

    /// Version 12 (history at hook scale): the JSON keys, quotes and timestamp text were paid in every row;
    /// now each row holds its fields as columns and only what they do not give of the payload (a template,
    /// mostly shared). The table is rebuilt in `seq` order (`seq` kept); every payload reads back byte-exact.
    private static func storeColumnsAndPayloadShapes(_ db: Database) throws {
        try db.execute(PayloadShapes.createTableSQL + "CREATE TABLE events_v12 (\n\(eventsTableVersion12)\n);")
        let read = try db.prepare("""
            SELECT seq, id_key, task_row, ts_us, progress, received_us, message_id, sent_us, receive_count,
                   id, agent_id, task_id, title, body, status, category, raw_json
            FROM events ORDER BY seq
            """)
        let insert = try db.prepare(EventRow.insertSQL(table: "events_v12", withSeq: true))
        var shapes = try PayloadShapes.Interner(db: db)
        while try read.step() == .row {
            let values = PayloadValues(id: read.string(9), agentID: read.string(10), taskID: read.string(11),
                                       title: read.string(12), body: read.string(13), status: read.string(14),
                                       category: read.optionalString(15), timestampMicros: read.int64(3),
                                       progress: read.optionalDouble(4))
            let template = PayloadTemplate.template(of: read.string(16), values: values)
            let shape = try shapes.shape(of: template)
            try EventRow.bind(values, template: template, shape: shape, to: insert)
            try insert.bind(read.int64(2), at: EventRow.taskRow)
            try insert.bind(read.int64(1), at: EventRow.idKey)
            try insert.bind(read.int64(5), at: EventRow.receivedMicros)
            try insert.bind(read.optionalString(6), at: EventRow.messageID)
            try insert.bind(read.optionalInt64(7), at: EventRow.sentMicros)
            try insert.bind(read.optionalInt64(8), at: EventRow.receiveCount)
            try insert.bind(read.int64(0), at: EventRow.seq)
            try insert.run()
        }
        try db.execute("""
            DROP TABLE events;
            ALTER TABLE events_v12 RENAME TO events;
            CREATE INDEX events_id_key ON events (id_key);
            CREATE INDEX events_task_order ON events (task_row, ts_us);
            """)
    }

    /// Version 13 (reads at scale): the unread error count (`UnreadErrors`), and the distinct agents and
    /// categories with indexes on them (`TimelineValues`), kept (by triggers until version 14), so
    /// `timeline status` and `agent:`/`category:` qualifiers cost the same at any history size.
    private static func keepReadCounts(_ db: Database) throws {
        try db.execute(UnreadErrors.createTableSQL + UnreadErrors.recountSQL)
        try db.execute(TimelineValues.createTableSQL + TimelineValues.recountSQL)
    }

    /// The triggers that kept the counts in versions 11 to 13.
    static let countTriggersBeforeVersion14 = [
        "task_counts_insert", "task_counts_delete", "task_counts_update",
        "timeline_values_insert", "timeline_values_delete", "timeline_values_agent", "timeline_values_category",
        "unread_errors_task_insert", "unread_errors_task_delete", "unread_errors_task_update",
        "unread_errors_mark_insert", "unread_errors_mark_update", "unread_errors_mark_delete",
        "unread_errors_watermark_insert", "unread_errors_watermark_update", "unread_errors_watermark_delete",
    ]

    /// Version 14 (writes at scale): the kept counts are kept by each write path in Swift (`KeptCounts`), not
    /// by triggers: every connection parsed the triggers' SQL when it opened, and every row write ran
    /// them. The triggers go, and the counts are counted again (a scan of the timeline, not of the events:
    /// it also drops the rows of zero the triggers left, and trusts nothing a file's writers did).
    private static func keepCountsWithoutTriggers(_ db: Database) throws {
        try db.execute(countTriggersBeforeVersion14.map { "DROP TRIGGER IF EXISTS \($0);" }.joined())
        try KeptCounts.recount(in: db)
    }

    /// Version 15 (imports at scale): the event id index is two tables a write fills in order
    /// (`EventIDIndex`) instead of `events_id_key`, which took each new key at a random page. Made from the
    /// `events` table (also where a test replays this step over a file that has them).
    private static func findEventIDsInTwoLevels(_ db: Database) throws {
        try db.execute("DROP TABLE IF EXISTS event_ids; DROP TABLE IF EXISTS event_ids_recent;" + EventIDIndex.createTablesSQL)
        try EventIDIndex.rebuild(in: db)
        try db.execute("DROP INDEX IF EXISTS events_id_key")
    }

    /// Version 16 (many tasks running at once): the settled rows waiting for the full-text index have an
    /// index of their own, so an ingest indexes them before rows still in progress
    /// (`SearchIndexer.WaitingClass`).
    private static func findWaitingRowsByStatus(_ db: Database) throws {
        try db.execute("DROP INDEX IF EXISTS timeline_unindexed_settled;" + SearchIndexer.createSettledWaitingIndexSQL)
    }

    /// Version 17 (imports at scale): FTS5 holds up to `searchPendingBytes` of a transaction's new index
    /// entries in memory before it writes them out as a segment (its `hashsize`; 1 MiB by default). A bulk
    /// import indexes 5,000 rows a transaction (`TimelineStore.searchIndexChunk`), and with 1 MiB each of
    /// those wrote several small segments, which the merges then rewrote level after level: 8 imports of
    /// 1,000,000 events of the mix took 75 s so, 66 s with one segment a transaction (the first seven
    /// 6.5-8.7 s each against 8.0-9.6). An ingest's few rows are written out at its commit either way, and
    /// the memory is taken only as entries come (a transaction of 5,000 rows: no change in the import's peak
    /// RSS).
    private static func indexLargeTransactionsInFewerSegments(_ db: Database) throws {
        try db.execute("INSERT INTO search (search, rank) VALUES ('hashsize', \(searchPendingBytes))")
    }

    /// FTS5's `hashsize` from version 17.
    static let searchPendingBytes = 64 << 20
}
