import TimelineCore
import TimelineUI

/// Runs one data effect against a `TimelineReading` and returns the input that reports its result.
/// Called off the input path (the controller's background queue); the reader is used by one thread.
public enum EffectExecutor {
    /// `isCancelled`: when the reader can stop its queries part-way (`CancellableReading`), the effect stops
    /// as soon as this is true, and answers nothing (a newer effect of its kind replaces it).
    public static func run(_ effect: Effect, on reader: TimelineReading,
                           cancelledWhen isCancelled: (@Sendable () -> Bool)? = nil) -> Input? {
        do {
            if let isCancelled, let cancellable = reader as? CancellableReading {
                return try cancellable.cancellable(when: isCancelled) { try answer(effect, reader) }
            }
            return try answer(effect, reader)
        } catch is ReadCancelled {
            return nil
        } catch {
            return .loadFailed("store: \(error)")
        }
    }

    private static func answer(_ effect: Effect, _ reader: TimelineReading) throws -> Input? {
        switch effect {
        case .loadWindow(let request): return .windowLoaded(try loadWindow(request, reader))
        case .loadCounts(let request): return .countsLoaded(try loadCounts(request, reader))
        case .loadHistory(let taskID):
            let row = try reader.row(taskID: taskID)
            let events = try reader.history(taskID: taskID, limit: 500)
            let replies = try (reader as? ReplyKeeping)?.replies(taskID: taskID) ?? []
            return .historyLoaded(HistoryResult(taskID: taskID, row: row, events: events, replies: replies))
        case .findMatch(let request): return .matchFound(try findMatch(request, reader))
        case .loadReplies(let eventIDs):
            guard let keeper = reader as? ReplyKeeping else { return nil }
            return .repliesLoaded(Array(try keeper.latestReplies(inReplyTo: eventIDs).values))
        case .loadAgents(let limit):
            guard let directory = reader as? AgentDirectory else { return .agentsLoaded([]) }
            return .agentsLoaded(try directory.agents(limit: limit))
        case .loadRejected(let limit):
            guard let store = reader as? RejectedReading else { return nil }
            return .rejectedLoaded(count: try store.rejectedCount(), newest: try store.rejected(limit: limit, olderThan: nil))
        case .sendReply: return nil  // sends run on the controller's send lane
        case .markRead(let taskID, let seq):
            try (reader as? ReadMarking)?.markRead(taskID: taskID, seq: seq)
            return nil
        case .markAllRead:
            try (reader as? ReadMarking)?.markAllRead()
            return nil
        case .loadPinned(let taskIDs): return .pinnedLoaded(try taskIDs.compactMap { try reader.row(taskID: $0) })
        case .quit, .setMark, .setPins, .saveView, .rememberView, .rememberSearches, .exportHistory, .restartPoller: return nil  // not reads: ActionExecutor, the poller hook
        }
    }

    static func loadWindow(_ r: WindowRequest, _ reader: TimelineReading) throws -> WindowResult {
        switch r.anchor {
        case .newest:
            let rows = try reader.rows(matching: r.query, olderThan: nil, limit: r.below + 1)
            let page = Array(rows.prefix(r.below))
            return WindowResult(request: r, rows: page, anchorIndex: 0, startPosition: 0, reachesNewest: true,
                                reachesOldest: rows.count <= r.below, anchorMoved: false)
        case .oldest:
            // One row more than shown tells whether these rows reach the newest; their position needs the
            // list's size: the exact counts' when the request carries it (a count of a large filtered list
            // would hold this lane, and the frame, for as long as it runs), else a count up to the cap (past
            // it, a lower bound that the exact counts, when they arrive, make exact).
            let floor = RowKey(timestampMicros: .min, seq: .min)
            let fetched = try reader.rows(matching: r.query, newerThan: floor, limit: r.below + 1)
            let reachesNewest = fetched.count <= r.below
            let rows = Array(fetched.suffix(r.below))
            let cap = PositionAccuracy.positionCap
            let total = reachesNewest ? rows.count : try r.listTotal ?? reader.count(matching: r.query, upTo: cap)
            let exact = reachesNewest || r.listTotal != nil || total < cap
            return WindowResult(request: r, rows: rows, anchorIndex: max(0, rows.count - 1),
                                startPosition: max(0, total - rows.count), reachesNewest: reachesNewest,
                                reachesOldest: true, anchorMoved: false, positionAccuracy: exact ? .exact : .atLeast)
        case .row(let taskID, let key):
            let current = try reader.row(taskID: taskID)
            let anchorStillThere = current?.key == key
            let newer = try reader.rows(matching: r.query, newerThan: key, limit: r.above + 1)
            let older = try reader.rows(matching: r.query, olderThan: key, limit: r.below + 1)
            let keptNewer = Array(newer.suffix(r.above))
            let anchorRow = anchorStillThere ? try listedRow(at: key, r.query, reader) : nil
            var rows = keptNewer
            if let anchorRow { rows.append(anchorRow) }
            rows += older.prefix(r.below)
            // The anchor's task moved (newer event) or left the filter: select what took its place.
            var anchorIndex = keptNewer.count
            if anchorRow == nil && anchorIndex >= rows.count { anchorIndex = max(0, rows.count - 1) }
            let reachesNewest = newer.count <= r.above
            let start: (position: Int, accuracy: PositionAccuracy)
            if reachesNewest {
                start = (0, .exact)
            } else if let p = r.anchorPosition, anchorStillThere {
                start = (max(0, p - keptNewer.count), r.anchorAccuracy)
            } else if let first = rows.first {
                start = try position(of: first.key, rowsAboveAnchor: keptNewer.count, r, reader)
            } else {
                start = (0, .exact)
            }
            return WindowResult(request: r, rows: rows, anchorIndex: anchorIndex, startPosition: start.position,
                                reachesNewest: reachesNewest, reachesOldest: older.count <= r.below,
                                anchorMoved: !anchorStillThere, positionAccuracy: start.accuracy)
        }
    }

    /// The position of the row at `key`, counted up to `PositionAccuracy.positionCap` rows (however far down
    /// it is, a reload reads that many at most). Past the cap: the anchor's former position less the rows
    /// above it (approximate) when the request carries one, else the cap (a lower bound).
    static func position(of key: RowKey, rowsAboveAnchor: Int, _ r: WindowRequest,
                         _ reader: TimelineReading) throws -> (position: Int, accuracy: PositionAccuracy) {
        let cap = PositionAccuracy.positionCap
        let counted = try reader.countNewer(than: key, matching: r.query, upTo: cap)
        if counted < cap { return (counted, .exact) }
        guard let former = r.formerPosition else { return (cap, .atLeast) }
        return (max(cap, former - rowsAboveAnchor), r.anchorAccuracy == .atLeast ? .atLeast : .approximate)
    }

    /// The row at `key` if it matches `query` (the first row older than the key just above it).
    static func listedRow(at key: RowKey, _ query: TimelineQuery, _ reader: TimelineReading) throws -> TimelineRow? {
        let justAbove = RowKey(timestampMicros: key.timestampMicros, seq: key.seq &+ 1)
        return try reader.rows(matching: query, olderThan: justAbove, limit: 1).first.flatMap { $0.key == key ? $0 : nil }
    }

    /// Counts for the header and status bar; with a cap, each stops one row past it (so "more than the cap"
    /// is told from "exactly the cap").
    static func loadCounts(_ r: CountsRequest, _ reader: TimelineReading) throws -> CountsResult {
        func count(_ query: TimelineQuery) throws -> Int {
            try r.cap.map { try reader.count(matching: query, upTo: $0 + 1) } ?? reader.count(matching: query)
        }
        let perStatus = try r.cap.map { try reader.statusCounts(matching: r.statusQuery, upTo: $0 + 1) }
            ?? reader.statusCounts(matching: r.statusQuery)
        // Without a status filter the list is the status counts' query: its total is their sum (capped alike).
        let total = r.listQuery == r.statusQuery ? perStatus.values.reduce(0, +) : try count(r.listQuery)
        let matches = try r.matchQuery.map(count)
        // `↑ N new` counts one row past the cap at most (shown as "1,000+").
        let newCount = try r.newerThan.map { try reader.countNewer(than: $0, matching: r.listQuery, upTo: CountsRequest.firstCap + 1) }
        return CountsResult(request: r, total: total, perStatus: perStatus, matchCount: matches, newCount: newCount)
    }

    static func findMatch(_ r: MatchRequest, _ reader: TimelineReading) throws -> MatchResult {
        let next = r.olderFirst
            ? try reader.rows(matching: r.query, olderThan: r.from, limit: 1).first
            : try reader.rows(matching: r.query, newerThan: r.from, limit: 1).last
        if let next { return MatchResult(request: r, row: next, wrapped: false) }
        guard r.wrap else { return MatchResult(request: r, row: nil, wrapped: false) }
        let wrapped = r.olderFirst
            ? try reader.rows(matching: r.query, olderThan: nil, limit: 1).first
            : try reader.rows(matching: r.query, newerThan: RowKey(timestampMicros: .min, seq: .min), limit: 1).last
        return MatchResult(request: r, row: wrapped, wrapped: wrapped != nil)
    }
}
