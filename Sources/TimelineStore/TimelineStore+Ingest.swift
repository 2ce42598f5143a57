import CSQLite
import Foundation
import TimelineCore

extension TimelineStore {
    /// Stores a batch in ONE transaction and says what happened to each item (same order as `items`).
    ///
    /// Idempotent: an event whose id is already stored is a `.duplicate` and changes nothing; a rejected
    /// message whose SQS message id is already stored is not stored twice. Newest wins per task by
    /// `(timestamp, arrival sequence)`; an older event is kept in the task's history only.
    /// When this returns, the batch is committed; when it throws, nothing of it was stored.
    ///
    /// Once `searchIndexBacklog` rows wait for the full-text index (searches test waiting rows' text, so
    /// results are always current), the batch indexes some of them in the same transaction
    /// (`searchIndexShare`); once `searchRowsPerMergeStep` rows were indexed since the last merge step, a
    /// batch takes one small step (`SearchMerger.pagesPerStep`) of merging the index's segments. The
    /// background `SearchMerger` merges the rest while no batch comes.
    /// `deferSearchIndex: true` (bulk imports) skips that; call `flushSearchIndex()` after.
    @discardableResult
    public func ingest(_ items: [IngestItem], deferSearchIndex: Bool = false) throws -> [IngestOutcome] {
        try ingest(PreparedBatch(items), deferSearchIndex: deferSearchIndex)
    }

    /// `ingest` of a batch prepared beforehand (on another thread, say): the same transaction and outcomes.
    @discardableResult
    public func ingest(_ items: PreparedBatch, deferSearchIndex: Bool = false) throws -> [IngestOutcome] {
        if items.isEmpty { return [] }
        let receivedMicros = Int64((Date().timeIntervalSince1970 * 1_000_000).rounded())
        return try locked {
            if deferSearchIndex { try useBulkSettings() }
            defer { if deferSearchIndex { restoreNormalSettings() } }
            var indexed = 0
            defer { if indexed > 0 { SearchMerger.shared(path: db.path).request() } }
            return try WriteGate.shared(path: db.path).withWriteLock { try db.transaction {
                var writer = try BatchWriter(db: db, receivedMicros: receivedMicros, expectedEvents: items.count)
                if items.count >= BatchWriter.lookupsInKeyOrderFrom { try writer.lookUpStoredInKeyOrder(items) }
                var outcomes: [IngestOutcome] = []
                outcomes.reserveCapacity(items.count)
                for item in items.entries {
                    switch item {
                    case .event(let event, let messageID):
                        outcomes.append(try writer.store(event, messageID: messageID))
                    case .rejected(let bytes, let messageID, let reason):
                        try writer.storeRejected(bytes, messageID: messageID, reason: reason)
                        outcomes.append(.rejected)
                    }
                }
                try writer.writeTimelineRows()
                try writer.indexIDs()
                if !deferSearchIndex { indexed = try searchIndexShare(batchSize: items.count) }
                return outcomes
            } }
        }
    }

    /// Indexes every timeline row that waits for the full-text index (in transactions of a few thousand
    /// rows), merges the index's segments (up to `bulkMergeBudget` pages), then checkpoints the whole WAL
    /// and empties it. Call it when a bulk import (`deferSearchIndex: true`) ends.
    public func flushSearchIndex() throws {
        try locked { try useBulkSettings() }
        defer { locked { restoreNormalSettings() } }
        func inWriteTransaction<T>(_ body: () throws -> T) throws -> T {
            try locked { try WriteGate.shared(path: db.path).withWriteLock { try db.transaction(body) } }
        }
        var indexed = 0
        while case let rows = try inWriteTransaction({
            try SearchIndexer(db: db).indexWaitingRows(limit: Self.searchIndexChunk)
        }), rows > 0 {
            indexed += rows
        }
        // The merges the background `SearchMerger` would do, in larger steps (nobody waits meanwhile).
        var budget = Self.bulkMergeBudget(indexedRows: indexed)
        while budget > 0, try inWriteTransaction({ try SearchMerger.mergeStep(db, pages: Self.bulkMergePagesPerStep) }) {
            budget -= Self.bulkMergePagesPerStep
        }
        // No large WAL left behind: on disk, and for the next commit to cut back.
        try checkpoint()
    }

    /// Most pages `flushSearchIndex` merges after indexing `indexedRows` rows: `bulkMergePagesPerIndexedRow`
    /// for each (at least one step). The index's segments are merged level by level, four into one, so
    /// now and then one import's merges would rewrite most of the index (the import that reached
    /// 8,000,000 events of the mix: 10.2 s, where the others took 6.5-8.7). Bounded, such a merge is spread
    /// over the imports that follow (and the background `SearchMerger` of any process that writes later),
    /// and each import still merges more than its own rows add on average, so no backlog builds up.
    static func bulkMergeBudget(indexedRows: Int) -> Int {
        max(bulkMergePagesPerStep, indexedRows * bulkMergePagesPerIndexedRow)
    }

    /// Rows waiting for the full-text index (searches test their text meanwhile).
    public func searchIndexBacklog() throws -> Int {
        try locked { Int(try db.scalarInt("SELECT count(*) FROM timeline WHERE indexed_seq IS NOT seq")) }
    }

    /// Free bytes beside the database from which a bulk write lets the WAL grow to the bulk limit: room for
    /// that WAL and for the file to grow by as much while the WAL is copied into it.
    static let bulkWALRoomBytes: Int64 = 4 * Int64(Checkpointer.bulkWalPages) * Int64(pageSize)

    /// Settings while a bulk batch is stored. Always a page cache that holds the event indexes. Checkpoints
    /// go on, on the background `Checkpointer`'s thread (the other core) while the import writes the next
    /// batch, and the WAL's pages are overwritten in the page cache rather than allocated anew (1,000,000
    /// events: 95–97k events/s with the WAL growing and one checkpoint at the end, 110–132k/s so).
    /// Where the disk has room (`freeBytes` at least `bulkWALRoomBytes`), the WAL may also hold two or three
    /// commits before the committing thread copies it (`Checkpointer.bulkWalPagesLimit`), and its file is not cut back
    /// meanwhile (each cut made the next commits allocate its blocks again): 1,000,000 events into a file of
    /// 10,000,000 took 39 s without, 32 s so. On a fuller disk the larger WAL could make an import fail that
    /// fitted before. `restoreNormalSettings` ends them; pairs nest (`bulkWrite`): only the outer pair changes
    /// the settings.
    func useBulkSettings(freeBytes: Int64? = nil) throws {
        settledRoomLeft = 0  // a bulk write leaves its rows waiting: the next ingest counts them
        bulkWritesUnderWay += 1
        guard bulkWritesUnderWay == 1 else { return }
        do {
            try db.execute("PRAGMA cache_size = \(Self.bulkImportPageCacheKiB)")
            guard (freeBytes ?? Self.freeBytes(beside: db.path)).map({ $0 >= Self.bulkWALRoomBytes }) ?? false else { return }
            try db.execute("PRAGMA journal_size_limit = -1")
            Checkpointer.install(on: db, bulk: true)
        } catch {
            bulkWritesUnderWay = 0
            putNormalSettingsBack()
            throw error
        }
    }

    /// Runs `body` (a whole bulk write: its `ingest(_:deferSearchIndex: true)` batches, `restore`s and the
    /// closing `flushSearchIndex`) with the bulk settings held from start to end. Each batch alone sets them
    /// and puts the normal ones back, and the smaller normal page cache let go of the indexes' pages: the
    /// next batch read them again (1,000,000 events into a file of 10,000,000: 724,000 page reads, 310,000
    /// so).
    public func bulkWrite<T>(_ body: () throws -> T) throws -> T {
        try locked { try useBulkSettings() }
        defer { locked { restoreNormalSettings() } }
        return try body()
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path` (nil when unknown).
    static func freeBytes(beside path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The settings every writable connection runs with otherwise: the normal page cache and WAL file
    /// limit, and checkpoints by the background `Checkpointer` (its WAL hook) instead of on the committing
    /// thread.
    func restoreNormalSettings() {
        bulkWritesUnderWay -= 1
        if bulkWritesUnderWay == 0 { putNormalSettingsBack() }
    }

    /// The settings `restoreNormalSettings` puts back once no bulk write is left.
    private func putNormalSettingsBack() {
        try? db.execute("PRAGMA cache_size = \(Self.pageCacheKiB); PRAGMA journal_size_limit = \(Self.walFileLimitBytes)")
        Checkpointer.install(on: db)
    }

    /// The full-text upkeep one ingest pays (inside its transaction); returns the rows it indexed.
    ///
    /// Once `searchIndexBacklog` settled rows wait, it indexes up to `searchIndexRowsPerIngest` of them (all
    /// of its own when the batch is larger); else, once `mostRowsWaiting` rows wait (so at least
    /// `searchIndexBacklogInProgress` in progress), as many rows in progress. Once `searchRowsPerMergeStep`
    /// rows were indexed since the last merge step, it takes one (`SearchMerger.pagesPerStep` pages) — a
    /// small batch only when it indexed nothing, so no small batch pays for both; a large one pays for
    /// both, which is little beside its own rows.
    func searchIndexShare(batchSize: Int) throws -> Int {
        let indexer = SearchIndexer(db: db)
        var indexed = 0
        let limit = max(batchSize, Self.searchIndexRowsPerIngest)
        if try settledRowsAreDue(indexer, batchSize: batchSize) {
            indexed = try indexer.indexWaitingRows(limit: limit, of: .settled)
        } else if try rowsInProgressAreDue(indexer) {
            indexed = try indexer.indexWaitingRows(limit: limit, of: .inProgress)
        }
        searchRowsIndexedSinceMerge += indexed
        if searchRowsIndexedSinceMerge >= Self.searchRowsPerMergeStep, indexed == 0 || batchSize >= Self.searchIndexRowsPerIngest {
            // A small, bounded share of the merging, so back-to-back batches (no idle time for the merger)
            // keep the segments bounded without ever paying for one large merge.
            _ = try SearchMerger.mergeStep(db, pages: SearchMerger.pagesPerStep)
            searchRowsIndexedSinceMerge = 0
        }
        return indexed
    }

    /// Whether settled rows are to be indexed: once `searchIndexBacklog` of them wait. An ingest of n events
    /// leaves at most n more rows waiting, so after a count that found fewer, the next comes only once
    /// this connection's ingests could have filled what it left (`settledRoomLeft`): counting them walked
    /// up to 2,000 index entries at every ingest, 6 % of a batch of 10 at 1,000,000 events. (Another
    /// writer's rows are counted by that writer's own ingests.)
    private func settledRowsAreDue(_ indexer: SearchIndexer, batchSize: Int) throws -> Bool {
        settledRoomLeft -= batchSize
        if settledRoomLeft > 0 { return false }
        let waiting = try indexer.waiting(atMost: Self.searchIndexBacklog, of: .settled)
        settledRoomLeft = Self.searchIndexBacklog - waiting
        return waiting >= Self.searchIndexBacklog
    }

    /// Whether rows in progress are to be indexed: once `mostRowsWaiting` rows wait. Counting every waiting
    /// row walks their index (~0.1 ms for 2,000), so it is done once every `waitingRowsCountEvery` ingests
    /// while fewer wait, and at each ingest while as many wait.
    private func rowsInProgressAreDue(_ indexer: SearchIndexer) throws -> Bool {
        if rowsInProgressToIndex || ingestsUntilWaitingRowsCount == 0 {
            rowsInProgressToIndex = try indexer.backlog(atLeast: Self.mostRowsWaiting)
            ingestsUntilWaitingRowsCount = Self.waitingRowsCountEvery
        }
        ingestsUntilWaitingRowsCount -= 1
        return rowsInProgressToIndex
    }

    /// Settled rows (any status but in progress) that may wait for the full-text index before an ingest
    /// indexes them. A row changed again while it waits is indexed once for both changes, and a row indexed
    /// before its next change is indexed twice (its old text removed, its new text added): with thousands
    /// of tasks running at once (many fleets on one queue) nearly every event is one more indexing, and the
    /// index was most of the live write path. So rows wait, up to this bound (when it held rows of every
    /// status; rows in progress now have their own, `searchIndexBacklogInProgress`). `bench/live_ingest_bench.py`,
    /// 10 fleets (2,000 running tasks): 0.17 ms CPU per event at 300 rows, 0.13 at 1,000, 0.065-0.068 at
    /// 2,000 (no indexing at all: 0.066); `timeline poll` on LocalStack (`bench/ingest_cpu_bench.py`, 10
    /// publishers): 0.25 ms at 300, 0.21 at 1,000, 0.15 at 2,000. A search tests the waiting rows' text: in
    /// memory on a reading connection (`WaitingRowTexts`: 0.3-0.7 ms for 2,000 rows once read, ~1.5 ms more
    /// for the first read after a change), in SQL otherwise (~3 µs a row for a window and again for its count).
    static let searchIndexBacklog = 2_000
    /// Rows of tasks in progress that may wait besides (`searchIndexBacklog` counts settled rows only): a
    /// task in progress changes again soon, so its row waits while it runs and is indexed once it settled,
    /// unless this many run at once. `bench/live_ingest_bench.py --fleets 50` (10,000 tasks running):
    /// 0.22-0.23 ms CPU per event when 2,000 rows of any kind could wait, 0.12-0.13 with 12,000.
    static let searchIndexBacklogInProgress = 10_000
    /// Most rows that wait for the index while ingests keep up (a bulk import defers indexing: then more;
    /// ingests notice within `waitingRowsCountEvery` of them).
    static let mostRowsWaiting = searchIndexBacklog + searchIndexBacklogInProgress
    /// Ingests between two counts of every waiting row while fewer than `mostRowsWaiting` wait.
    static let waitingRowsCountEvery = 16
    /// Rows indexed by ingests between two of their merge steps (`searchIndexShare`): the segments the
    /// indexing adds are merged at this pace whatever the backlog.
    static let searchRowsPerMergeStep = 1_000
    /// Most waiting rows one ingest indexes (besides its own rows when it has more). The batch that indexes
    /// is the slow one: at 1,000,000 events a batch of 10 that indexed 150 rows took 9-15 ms of CPU, and
    /// under back-to-back batches of 10 (one in 15 indexed) those batches were the ingest p99. With 75, one
    /// in about 7 indexes and each costs half. Store bench at 1,000,000 events, alternated runs: p99 5.8 and
    /// 6.1 ms with 150 against 3.9, 3.9 and 5.3 with 75 on tmpfs; 10.8 and 12.4 against 6.6 and 7.7 on disk;
    /// the medians within the runs' spread. The live write path's CPU per event measured the same
    /// (`bench/live_ingest_bench.py`, 2 × 2 alternated runs: 0.060 ms). Segments of 30-50 rows cost 30-40%
    /// more per row, in CPU and in later merges.
    static let searchIndexRowsPerIngest = 75
    /// Most rows indexed per transaction by `flushSearchIndex`.
    static let searchIndexChunk = 5_000
    /// Pages written per merge step by `flushSearchIndex`.
    static let bulkMergePagesPerStep = 1_000
    /// Merge pages (of about 4 KB) `flushSearchIndex` may write per row it indexed: a row of the mix adds
    /// about a quarter of a page, which the merges rewrite once per level (three to four levels up to
    /// 10,000,000 events), so one page a row is more than the average share and less than the largest merge.
    static let bulkMergePagesPerIndexedRow = 1
}

/// The statements of one ingest transaction (also of a backup restore, which gives each item its own
/// stored receive time).
///
/// Events are inserted one by one; the timeline is decided in memory per task (newest wins, exactly as
/// if the events were applied one at a time) and each touched task's row is written once at the end, so a
/// task updated many times in one batch costs one row write, not one per event.
struct BatchWriter {
    /// What this batch did to one task so far.
    private struct TaskChange {
        let taskID: String
        /// The task's timeline row id (allocated by this batch when `isNew`).
        var rowID: Int64
        /// Whether this batch creates the task's timeline row.
        var isNew: Bool
        var winnerSeq: Int64
        var winnerMicros: Int64
        /// The winning event's status (a step takes the row only from an `in_progress` one).
        var winnerStatus: String
        /// The new winning event's timeline columns, nil while the stored row still wins.
        var winner: Winner?
        /// Events of the task this batch added.
        var added: Int
        /// The stored row's timeline columns, nil when `isNew`.
        var stored: Winner?
    }

    /// What the timeline row keeps of a winning event (not the whole event: changes are copied often).
    private struct Winner: Equatable {
        var status: String
        var agentID: String
        var category: String?

        init(_ event: Event) {
            (status, agentID, category) = (event.status.rawValue, event.agentID, event.category)
        }

        init(status: String, agentID: String, category: String?) {
            (self.status, self.agentID, self.category) = (status, agentID, category)
        }
    }

    let db: Database
    let receivedMicros: Int64
    let insertEvent: Statement
    let findStored: Statement
    let findRow: Statement
    /// The payload templates' shapes (`PayloadShapes`).
    private var shapes: PayloadShapes.Interner
    /// The row id the next new task gets (loaded on first use).
    private var nextRowID: Int64?
    /// What this batch did to each task it stored events of, in first-touched order (new rows get row ids
    /// in arrival order); found by task id through `changeIndex`, and changed in place.
    private var changes: [TaskChange] = []
    private var changeIndex: [String: Int] = [:]
    /// The ids this batch stored or found stored (the keys of those it added join the id index when it
    /// ends: `indexIDs`).
    private var storedIDs: BatchIDs
    /// The ids of the batch's events that were stored before it, by id key, when they were all looked up
    /// at once (`lookUpStoredInKeyOrder`); nil: each is looked up as it comes. Compared byte for byte, as
    /// the store compares ids.
    private var storedBefore: [Int64: [String]]?
    /// The seqs of the first and the last event this batch added.
    private var firstSeq: Int64?
    private var lastSeq: Int64 = 0

    /// `expectedEvents`: about how many events the batch holds (room for their ids).
    init(db: Database, receivedMicros: Int64, expectedEvents: Int = 0) throws {
        self.db = db
        self.receivedMicros = receivedMicros
        storedIDs = BatchIDs(expected: expectedEvents)
        changes.reserveCapacity(expectedEvents)
        changeIndex.reserveCapacity(expectedEvents)
        insertEvent = try db.cached(EventRow.insertSQL())
        shapes = try PayloadShapes.Interner(db: db)
        findStored = try db.cached(EventIDIndex.findSQL(columns: "1"))
        findRow = try db.cached("SELECT row_id, seq, ts_us, status, agent_id, category FROM timeline WHERE task_id = ?1")
    }

    /// Stores one event (received at `receivedAt`, else at the batch's time).
    mutating func store(_ prepared: PreparedEvent, messageID: String?, receivedAt: Int64? = nil) throws -> IngestOutcome {
        let event = prepared.event
        // An id seen in this batch is stored (as it is when the lookup finds it: it may stay in the set).
        guard storedIDs.insert(event.id, key: prepared.idKey) else { return .duplicate }
        if try isStored(event.id, key: prepared.idKey) { return .duplicate }
        let index = changeIndex[event.taskID]
        let stored = try index == nil ? storedRow(of: event.taskID) : nil
        let rowID = try index.map { changes[$0].rowID } ?? stored?.rowID ?? allocateRowID()
        try EventRow.bind(prepared.values, template: prepared.template, shape: shapes.shape(of: prepared.template),
                          to: insertEvent)
        try insertEvent.bind(messageID, at: EventRow.messageID)
        try insertEvent.bind(receivedAt ?? receivedMicros, at: EventRow.receivedMicros)
        try insertEvent.bind(prepared.idKey, at: EventRow.idKey)
        try insertEvent.bind(rowID, at: EventRow.taskRow)
        try insertEvent.bind(event.delivery?.sentMicros, at: EventRow.sentMicros)
        try insertEvent.bind(event.delivery?.receiveCount.map(Int64.init), at: EventRow.receiveCount)
        try insertEvent.run()
        let seq = db.lastInsertRowID
        if firstSeq == nil { firstSeq = seq }
        lastSeq = seq

        if let index { return Self.apply(event, seq: seq, to: &changes[index]) }
        changeIndex[event.taskID] = changes.count
        guard var change = stored else {
            changes.append(TaskChange(taskID: event.taskID, rowID: rowID, isNew: true, winnerSeq: seq,
                                      winnerMicros: event.timestampMicros, winnerStatus: event.status.rawValue,
                                      winner: Winner(event), added: 1, stored: nil))
            return .inserted
        }
        let outcome = Self.apply(event, seq: seq, to: &change)
        changes.append(change)
        return outcome
    }

    /// Counts a stored event (`seq`) of a task this batch or the store had, and makes it the winner when it is
    /// newer. Newest wins by (timestamp, arrival); seq only grows, so on equal timestamps the later arrival
    /// wins. A step (`Event.isStep`) wins only over a working task: it never flips a waiting or finished one
    /// back.
    private static func apply(_ event: Event, seq: Int64, to change: inout TaskChange) -> IngestOutcome {
        change.added += 1
        let newer = (event.timestampMicros, seq) > (change.winnerMicros, change.winnerSeq)
        guard newer, !event.isStep || change.winnerStatus == Status.inProgress.rawValue else { return .keptOlder }
        (change.winnerSeq, change.winnerMicros, change.winner) = (seq, event.timestampMicros, Winner(event))
        change.winnerStatus = event.status.rawValue
        return .replaced
    }

    /// Adds this batch's keys to the id index (`EventIDIndex`), and moves the slice of recent keys its events
    /// stand for to the lower level; call it once, when every event is stored.
    func indexIDs() throws {
        guard let firstSeq else { return }
        try EventIDIndex.addKeys(ofEvents: firstSeq...lastSeq, in: db)
        try EventIDIndex.move(EventIDIndex.slice(afterSeq: firstSeq - 1, lastSeq: lastSeq), in: db)
    }

    /// Batches of at least this many items look their events' ids up all at once, in key order.
    static let lookupsInKeyOrderFrom = 1_000

    /// Looks up which of the batch's events were stored before it, in the order of their id keys: the
    /// lookups then walk the id index from one end to the other, each of its pages read once, where in the
    /// batch's order each went to a random page (an import into a file of 10,000,000 events spent 30 % of
    /// its store thread on them, most waiting for pages). The keys are looked up all in one statement
    /// (`EventIDIndex.storedKeys`), or were looked up when the batch was prepared (`StoredKeySnapshot`);
    /// only the events whose key was found have their whole id compared.
    mutating func lookUpStoredInKeyOrder(_ items: PreparedBatch) throws {
        let found = try items.storedKeys?.currentKeys(in: db) ?? EventIDIndex.storedKeys(among: items.sortedIDKeys(), in: db)
        var order: [(key: Int64, entry: Int)] = []  // no id here: sorting moves plain integers
        for (index, entry) in items.entries.enumerated() {
            if case .event(let prepared, _) = entry, found.contains(prepared.idKey) { order.append((prepared.idKey, index)) }
        }
        order.sort { $0.key < $1.key }
        var stored: [Int64: [String]] = [:]
        for (key, index) in order {
            guard case .event(let prepared, _) = items.entries[index] else { continue }
            if try lookUp(prepared.event.id, key: key) { stored[key, default: []].append(prepared.event.id) }
        }
        storedBefore = stored
    }

    /// Whether an event with this id was stored before this batch (`storedIDs` holds the batch's own).
    private func isStored(_ id: String, key: Int64) throws -> Bool {
        if let storedBefore { return storedBefore[key]?.contains { ByteScan.equal($0, id) } ?? false }
        return try lookUp(id, key: key)
    }

    /// Whether the id index holds an event with this id (and key).
    private func lookUp(_ id: String, key: Int64) throws -> Bool {
        defer { findStored.reset() }
        try findStored.bind(key, at: 1)
        try findStored.bind(id, at: 2)
        return try findStored.step() == .row
    }

    /// A row id for a new task, after every id a timeline row or an event holds: a prune by copy deletes
    /// tasks' rows before their events (`pruneByCopy`), and a new task must not take over such events.
    private mutating func allocateRowID() throws -> Int64 {
        let next = try nextRowID ?? (db.scalarInt("""
            SELECT max(coalesce((SELECT max(row_id) FROM timeline), 0), coalesce((SELECT max(task_row) FROM events), 0))
            """) + 1)
        nextRowID = next + 1
        return next
    }

    /// The task's stored timeline row as an unchanged `TaskChange`, nil when the task is new.
    private func storedRow(of taskID: String) throws -> TaskChange? {
        defer { findRow.reset() }
        try findRow.bind(taskID, at: 1)
        guard try findRow.step() == .row else { return nil }
        let stored = Winner(status: findRow.string(3), agentID: findRow.string(4), category: findRow.optionalString(5))
        return TaskChange(taskID: taskID, rowID: findRow.int64(0), isNew: false, winnerSeq: findRow.int64(1),
                          winnerMicros: findRow.int64(2), winnerStatus: stored.status, winner: nil, added: 0, stored: stored)
    }

    /// Writes each touched task's row once: new rows, new winners (they then wait for the search index:
    /// `indexed_seq` is left as it was), and event counts. A new winner's status, agent and category are
    /// written only where they differ from the stored row's, so the indexes on them (`timeline_agent`,
    /// `timeline_category`) do nothing for a task that only moved on. The kept counts take what the rows
    /// change in a few statements (`KeptCounts`).
    func writeTimelineRows() throws {
        var counts = KeptCounts()
        for change in changes {
            guard let winner = change.winner else { continue }
            counts.write(rowID: change.rowID,
                         stored: change.stored.map { ($0.status, $0.agentID, $0.category) },
                         winner: (winner.status, winner.agentID, winner.category))
        }
        let unreadBefore = try KeptCounts.unreadErrors(in: db, rows: counts.storedErrorRows)
        try writeRows()
        let unreadAfter = try KeptCounts.unreadErrors(in: db, rows: counts.winningErrorRows)
        try counts.apply(to: db, unreadDelta: unreadAfter - unreadBefore)
    }

    /// The row writes of `writeTimelineRows`.
    private func writeRows() throws {
        if changes.isEmpty { return }
        let insertRow = try db.cached("""
            INSERT INTO timeline (row_id, seq, ts_us, status, agent_id, category, event_count, task_id, indexed_seq)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL)
            """)
        let countOlder = try db.cached("UPDATE timeline SET event_count = event_count + ?2 WHERE row_id = ?1")
        // In row id order: each write lands next to the previous one in the table (new rows last, in the
        // order their ids were given), instead of at a random page of it.
        let ordered = changes.indices.sorted { changes[$0].rowID < changes[$1].rowID }
        for index in ordered {
            let change = changes[index]
            guard let winner = change.winner else {
                try countOlder.bind(change.rowID, at: 1)
                try countOlder.bind(change.added, at: 2)
                try countOlder.run()
                continue
            }
            let statement: Statement
            let changed: (status: Bool, agentID: Bool, category: Bool)
            if let stored = change.stored {
                changed = (winner.status != stored.status, winner.agentID != stored.agentID, winner.category != stored.category)
                statement = try db.cached(Self.replaceRowSQL(status: changed.status, agentID: changed.agentID,
                                                             category: changed.category))
            } else {
                changed = (true, true, true)
                statement = insertRow
                try statement.bind(change.taskID, at: 8)
            }
            try statement.bind(change.rowID, at: 1)
            try statement.bind(change.winnerSeq, at: 2)
            try statement.bind(change.winnerMicros, at: 3)
            if changed.status { try statement.bind(winner.status, at: 4) }
            if changed.agentID { try statement.bind(winner.agentID, at: 5) }
            if changed.category { try statement.bind(winner.category, at: 6) }
            try statement.bind(change.added, at: 7)
            try statement.run()
        }
    }

    /// The UPDATE of a task's row to a new winner that sets status, agent and category only where asked.
    static func replaceRowSQL(status: Bool, agentID: Bool, category: Bool) -> String {
        "UPDATE timeline SET seq = ?2, ts_us = ?3" + (status ? ", status = ?4" : "") + (agentID ? ", agent_id = ?5" : "")
            + (category ? ", category = ?6" : "") + ", event_count = event_count + ?7 WHERE row_id = ?1"
    }

    func storeRejected(_ bytes: [UInt8], messageID: String?, reason: String, receivedAt: Int64? = nil) throws {
        let insert = try db.cached("""
            INSERT INTO rejected (raw_body, message_id, reason, received_us) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT DO NOTHING
            """)
        try insert.bind(blob: bytes, at: 1)
        try insert.bind(messageID, at: 2)
        try insert.bind(reason, at: 3)
        try insert.bind(receivedAt ?? receivedMicros, at: 4)
        try insert.run()
    }
}
