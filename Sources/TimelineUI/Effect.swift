import TimelineCore

/// Where a window is anchored.
public enum WindowAnchor: Sendable, Equatable {
    /// The newest rows (FOLLOW, or a fresh filter).
    case newest
    /// The oldest rows (G / End).
    case oldest
    /// Around a row: keep it (found by task id and key) at the same place.
    case row(taskID: String, key: RowKey)
}

/// How well a list position is known. Counting a position far down a long history would read every row
/// above it, so the count stops at a cap (`positionCap`) and the position is then estimated.
public enum PositionAccuracy: Sendable, Equatable {
    /// Counted: `row 1,234`.
    case exact
    /// Carried over from before the store changed, the recount having stopped at its cap: close to the
    /// true position, not exact (`row ~1,234`).
    case approximate
    /// A lower bound, the count having stopped at its cap with nothing to go by (`row 10,001+`).
    case atLeast

    /// Most rows a window load counts to find its position.
    public static let positionCap = 10_000
}

/// A keyset window fetch: rows above and below an anchor.
public struct WindowRequest: Sendable, Equatable {
    public var generation: Int
    public var query: TimelineQuery
    public var anchor: WindowAnchor
    /// Rows wanted newer than the anchor (includes the margin).
    public var above: Int
    /// Rows wanted at and older than the anchor (includes the margin).
    public var below: Int
    /// Known absolute position of the anchor row, if still valid (saves a count).
    public var anchorPosition: Int?
    /// True for reloads around the current selection (scrolling, store changes): when the result
    /// arrives the selection stays on whatever row is selected then. False for jumps (n/N, e/w).
    public var keepSelection: Bool
    /// Screen line the anchor row should be drawn on when the result arrives (jumps only).
    public var targetLine: Int?
    /// How many rows the list holds, when the exact counts on screen say so: the oldest rows (End) then
    /// find their position without counting the whole list again.
    public var listTotal: Int? = nil
    /// How well `anchorPosition` and `formerPosition` are known.
    public var anchorAccuracy: PositionAccuracy = .exact
    /// Where the anchor row was before the store changed (when `anchorPosition` is nil for that reason): the
    /// position estimate when the recount stops at its cap.
    public var formerPosition: Int? = nil
    /// A new query's first load: its rows are the query's first counts (`countsFromWindow`), shown until the
    /// exact counts arrive, so they cost a screenful on any history.
    public var countsFirst = false
}

/// A fetched window, newest first.
public struct WindowResult: Sendable, Equatable {
    public var request: WindowRequest
    public var rows: [TimelineRow]
    /// Index in `rows` of the anchor row (or of the row that took its place).
    public var anchorIndex: Int
    /// Absolute position of `rows[0]` in the whole list.
    public var startPosition: Int
    /// True when nothing newer than `rows[0]` exists / nothing older than the last row.
    public var reachesNewest: Bool
    public var reachesOldest: Bool
    /// True when the anchor row itself moved away (its task got a newer event).
    public var anchorMoved: Bool
    /// How well `startPosition` is known.
    public var positionAccuracy: PositionAccuracy

    public init(request: WindowRequest, rows: [TimelineRow], anchorIndex: Int, startPosition: Int,
                reachesNewest: Bool, reachesOldest: Bool, anchorMoved: Bool, positionAccuracy: PositionAccuracy = .exact) {
        self.request = request
        self.positionAccuracy = positionAccuracy
        self.rows = rows
        self.anchorIndex = anchorIndex
        self.startPosition = startPosition
        self.reachesNewest = reachesNewest
        self.reachesOldest = reachesOldest
        self.anchorMoved = anchorMoved
    }
}

/// Header and status-bar counts.
public struct CountsRequest: Sendable, Equatable {
    public var generation: Int
    public var listQuery: TimelineQuery
    /// Query for the per-status header counts (the list query without status filters).
    public var statusQuery: TimelineQuery
    /// Highlight-mode query whose matches are counted, if any.
    public var matchQuery: TimelineQuery?
    /// Count rows newer than this key (`↑ N new` in BROWSE).
    public var newerThan: RowKey?
    /// Count at most this many rows past which totals show as "1,000+" (a new query whose first window
    /// cannot give its counts is counted this way first, so they settle in a fraction of a second); nil:
    /// exact counts.
    public var cap: Int?

    /// How far such a new query is counted first: `CountsRequest.cap`.
    public static let firstCap = 1_000
}

public struct CountsResult: Sendable, Equatable {
    public var request: CountsRequest
    public var total: Int
    public var perStatus: [Status: Int]
    public var matchCount: Int?
    public var newCount: Int?

    /// True unless a capped count stopped early: a total or match count over the cap means "more than the
    /// cap", and per-status counts that add up to more than it are lower bounds.
    public var isExact: Bool {
        guard let cap = request.cap else { return true }
        return total <= cap && (matchCount ?? 0) <= cap && perStatus.values.reduce(0, +) <= cap
    }

    public init(request: CountsRequest, total: Int, perStatus: [Status: Int], matchCount: Int?, newCount: Int?) {
        self.request = request
        self.total = total
        self.perStatus = perStatus
        self.matchCount = matchCount
        self.newCount = newCount
    }
}

/// A task's history for the detail view.
public struct HistoryResult: Sendable, Equatable {
    public var taskID: String
    public var row: TimelineRow?
    public var events: [Event]
    /// The replies this viewer sent for the task (read when the reader keeps replies).
    public var replies: [ReplyRecord]

    public init(taskID: String, row: TimelineRow?, events: [Event], replies: [ReplyRecord] = []) {
        self.taskID = taskID
        self.row = row
        self.events = events
        self.replies = replies
    }
}

/// Find the next row matching `query` from `from` in a direction (n/N, e/w).
public struct MatchRequest: Sendable, Equatable {
    public var generation: Int
    public var query: TimelineQuery
    public var from: RowKey
    public var olderFirst: Bool
    /// Wrap around to the other end when nothing is found.
    public var wrap: Bool
}

public struct MatchResult: Sendable, Equatable {
    public var request: MatchRequest
    public var row: TimelineRow?
    public var wrapped: Bool

    public init(request: MatchRequest, row: TimelineRow?, wrapped: Bool) {
        self.request = request
        self.row = row
        self.wrapped = wrapped
    }
}

/// A request from `reduce` to the outside world; the executor answers with an `Input`.
public enum Effect: Sendable, Equatable {
    case loadWindow(WindowRequest)
    case loadCounts(CountsRequest)
    case loadHistory(taskID: String)
    case findMatch(MatchRequest)
    /// Send a reply the user confirmed (recorded first, outcome kept); answered with `.replyOutcome`.
    case sendReply(ReplyRecord)
    /// The stored replies to these events ("answered" rows after a restart); answered with `.repliesLoaded`.
    case loadReplies(eventIDs: [String])
    /// The agents view's rows; answered with `.agentsLoaded`.
    case loadAgents(limit: Int)
    /// The user looked at the task up to its event `seq` (opened it, or Space): store it as read.
    case markRead(taskID: String, seq: Int64)
    /// `U`: every task read.
    case markAllRead
    /// The pinned tasks' current rows; answered with `.pinnedLoaded`.
    case loadPinned(taskIDs: [String])
    /// Keep the pinned task ids (`P`), newest pin first.
    case setPins([String])
    /// Store a task's mark (`m`).
    case setMark(taskID: String, marked: Bool)
    /// Write a named view to the config file (`:save NAME`).
    case saveView(NamedQuery)
    /// Remember the view in use, restored at the next start.
    case rememberView(name: String?)
    /// Keep the `/` prompt's searches (oldest first, at most `SearchHistory.limit`) for the next start.
    case rememberSearches([String])
    /// Write the task's history as Markdown to a file in the current directory (`x`).
    case exportHistory(taskID: String)
    /// How many messages were rejected, and the newest `limit` of them (0: only the count, for the header);
    /// answered with `.rejectedLoaded`.
    case loadRejected(limit: Int)
    /// `R` while the poller is stopped: start it again (the runtime asks the poller's owner).
    case restartPoller
    case quit
}
