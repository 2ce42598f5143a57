import Foundation

/// Keeps the full-text index's merges small and mostly off the ingest path. The index runs with FTS5's
/// `automerge` off (schema version 8): FTS5 otherwise merged 64 × levels pages inside some commits (the
/// ingest p99). Instead ingests take small merge steps of their own now and then
/// (`TimelineStore.searchIndexShare`, so back-to-back batches keep the segments bounded) and wake this job,
/// which, once no batch has come for `quietBeforeStep`, merges on its own connection in steps of
/// `pagesPerStep` pages (one short transaction each)
/// until no level holds FTS5's `usermerge` (4) segments. FTS5's `crisismerge` (64) bounds a level's
/// segments whatever happens.
enum SearchMerger {
    /// Pages (of about 4 KB) written by one step: about a millisecond (most of a step's cost is fixed).
    static let pagesPerStep = 8
    /// How long the file must have had no write before a background step (a poller's batches come far
    /// apart; a bulk run of batches does its own steps).
    static let quietBeforeStep = Duration.milliseconds(20)

    /// The merge job of the file at `path`.
    static func shared(path: String) -> BackgroundJob {
        BackgroundJob.shared(name: "search-merger", path: path) { db in
            let gate = WriteGate.shared(path: db.path)
            guard let merged = try gate.whenIdle(for: quietBeforeStep, {
                try db.transaction { try mergeStep(db, pages: pagesPerStep) }
            }) else {
                Thread.sleep(forTimeInterval: 0.005)   // writes are going on: look again soon
                return true
            }
            return merged
        }
    }

    /// One merge step writing up to `pages` pages (the caller holds a write transaction); returns
    /// whether it merged anything (FTS5 changes two rows or more when it did).
    static func mergeStep(_ db: Database, pages: Int) throws -> Bool {
        let before = db.totalChanges
        try db.execute("INSERT INTO search (search, rank) VALUES ('merge', \(pages))")
        return db.totalChanges - before >= 2
    }
}
