/// Which of a batch's id keys the id index (`EventIDIndex`) held when the batch was prepared, looked up on
/// another connection before the batch's transaction (`TimelineStore.lookUpStoredKeys`): a bulk import
/// does it on its reading thread, on the other core, and its store thread spent a sixth of its time on
/// that lookup at 10,000,000 events.
///
/// The answer can be out of date by the time the batch is stored, and the transaction brings it up to
/// date (`currentKeys`): events stored since the lookup have a greater seq than the last event then, as
/// long as that event still stands (a new row takes the greatest seq plus one), so their keys are read by
/// seq; a key found may have lost its event since (a prune), so every key found only marks the events
/// whose whole id the transaction compares, as it does without a snapshot.
struct StoredKeySnapshot: Sendable {
    /// The last event at the lookup (seq 0: there was none) and its id key.
    let lastSeq: Int64
    let lastKey: Int64
    /// The keys of the batch either level held then.
    let keys: Set<Int64>

    /// The keys to compare ids for now, inside the batch's transaction: `keys` and those of the events
    /// stored since; nil when the last event of the lookup is gone (the batch then looks its keys up itself).
    func currentKeys(in db: Database) throws -> Set<Int64>? {
        if lastSeq > 0 {
            let stillThere = try db.cached("SELECT id_key FROM events WHERE seq = ?1")
            defer { stillThere.reset() }
            try stillThere.bind(lastSeq, at: 1)
            guard try stillThere.step() == .row, stillThere.int64(0) == lastKey else { return nil }
        }
        let since = try db.cached("SELECT id_key FROM events WHERE seq > ?1")
        defer { since.reset() }
        try since.bind(lastSeq, at: 1)
        var current = keys
        while try since.step() == .row { current.insert(since.int64(0)) }
        return current
    }
}

extension TimelineStore {
    /// Looks up which of the batch's id keys are stored, on this connection (open one read-only on the
    /// thread that prepares batches), and keeps the answer in the batch for its transaction
    /// (`StoredKeySnapshot`). Small batches are left alone: they look their ids up one by one.
    public func lookUpStoredKeys(of batch: inout PreparedBatch) throws {
        guard batch.count >= BatchWriter.lookupsInKeyOrderFrom else { return }
        let keys = batch.sortedIDKeys()
        batch.storedKeys = try locked {
            try db.readTransaction {
                let last = try db.cached("SELECT seq, id_key FROM events ORDER BY seq DESC LIMIT 1")
                defer { last.reset() }
                let (lastSeq, lastKey) = try last.step() == .row ? (last.int64(0), last.int64(1)) : (0, 0)
                return StoredKeySnapshot(lastSeq: lastSeq, lastKey: lastKey,
                                         keys: try EventIDIndex.storedKeys(among: keys, in: db))
            }
        }
    }
}
