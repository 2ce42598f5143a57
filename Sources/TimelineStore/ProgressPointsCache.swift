import TimelineCore

/// The progress points a connection's row reads found last, by task row: the viewer reads its window again
/// after every store change, and each running row's points took a walk over the task's events (a row read
/// for each): a sixth of what the viewer's reads and drawing cost under a busy fleet. A task's events change
/// only by an ingest that adds some (its event count rises) or a prune that drops its oldest ones (its count
/// falls and its first time moves), so the points are read again whenever the row's winning seq, event count
/// or first time differs from what they were read with. (Only a prune followed by exactly as many late events,
/// the oldest at the old first time, would go unseen, and then only until the task's next event.)
// @unchecked: only reached under the store's lock (reads hold it).
final class ProgressPointsCache: @unchecked Sendable {
    /// Task rows kept; all are forgotten at once past it (a window holds a few dozen running rows).
    static let rowLimit = 1_024

    /// What a task's points were read for.
    struct Version: Equatable {
        var seq: Int64
        var eventCount: Int
        var firstMicros: Int64?
    }

    private var entries: [Int64: (version: Version, points: [ProgressPoint])] = [:]

    /// The points of `taskRow` at `version`, from `read` unless kept for that version.
    func points(taskRow: Int64, version: Version, read: () throws -> [ProgressPoint]) rethrows -> [ProgressPoint] {
        if let entry = entries[taskRow], entry.version == version { return entry.points }
        let points = try read()
        if entries.count >= Self.rowLimit { entries.removeAll(keepingCapacity: true) }
        entries[taskRow] = (version, points)
        return points
    }
}
