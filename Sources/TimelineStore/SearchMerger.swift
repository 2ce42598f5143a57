import Foundation

/// Merges the full-text index's segments off the ingest path. The index runs with FTS5's `automerge`
/// off (schema version 8), so a commit never merges; an ingest that adds to the index wakes this job,
/// which merges in small steps (one short transaction each, under the `WriteGate`, pausing between steps
/// so a waiting ingest goes first) until no level holds FTS5's `usermerge` (4) segments. FTS5's
/// `crisismerge` (64) still bounds the segments of a level should the job never run.
enum SearchMerger {
    /// Pages (of about 4 KB) written by one background step: a few milliseconds.
    static let pagesPerStep = 32
    /// Pause between two background steps.
    static let pauseMicros: UInt32 = 500

    /// The merge job of the file at `path`.
    static func shared(path: String) -> BackgroundJob {
        BackgroundJob.shared(name: "search-merger", path: path) { db in
            let merged = try WriteGate.shared(path: db.path).withLock {
                try db.transaction { try mergeStep(db, pages: pagesPerStep) }
            }
            if merged { usleep(pauseMicros) }
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
