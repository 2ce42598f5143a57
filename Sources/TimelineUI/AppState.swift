import Foundation
import TimelineCore

/// FOLLOW keeps the newest task at the top; BROWSE holds the selection in place.
public enum Mode: String, Sendable, Equatable { case follow = "FOLLOW", browse = "BROWSE" }

/// The `/` search: query text, how it applies, and whether the prompt is open.
public struct SearchState: Sendable, Equatable {
    /// Filter hides non-matching tasks; highlight keeps every task and marks matches.
    public enum Kind: String, Sendable, Equatable { case filter, highlight }
    public var text = ""
    public var kind: Kind = .filter
    public var promptOpen = false
    public var query = TimelineQuery()
    /// Matches counted for highlight mode (or the filtered total in filter mode).
    public var matchCount: Int?
    /// Shown briefly after n/N, e.g. "search wrapped".
    public var notice: String?
    /// Searches kept with ⏎, oldest first (↑/↓ recall them in the prompt; kept in the database).
    public var history: [String] = []
    /// While recalling: the entry shown, and the text typed before the first ↑.
    var recalled: Int?
    var draft = ""
    public init() {}
}

/// A named query: a view of the config file.
public struct NamedQuery: Sendable, Equatable {
    public var name: String
    public var query: String
    public init(name: String, query: String) {
        self.name = name
        self.query = query
    }
}

/// The detail view of one task: its current row, history and scroll offset.
public struct DetailState: Sendable, Equatable {
    public var taskID: String
    public var row: TimelineRow?
    public var history: [Event] = []
    public var loaded = false
    public var scroll = 0
    /// Replies this viewer sent (or failed to send) for the task, oldest first: local history entries.
    public var replies: [ReplyRecord] = []
    /// Long body and raw payload shown whole (`z`); folded to their first screen otherwise.
    public var expanded = false
    /// The expanded texts' wrapped lines (see `DetailFold`).
    var unfolded: DetailFold.Unfolded?
    public init(taskID: String, row: TimelineRow?) {
        self.taskID = taskID
        self.row = row
    }
}

/// Counts shown in the header and status bar.
public struct Counts: Sendable, Equatable {
    public var total: Int?
    public var perStatus: [Status: Int] = [:]
    public var newSinceBrowse = 0
    /// The query generation these counts belong to (nil before the first).
    public var generation: Int?
    /// Set while the counts are a capped count's (`CountsRequest.cap`) that stopped early, or a new
    /// query's first screenful's (`countsFromWindow`: the rows read): a total or match count over it shows
    /// as "1,000+" and per-status counts as lower bounds "N+", until the exact counts arrive.
    public var cap: Int?
    public init() {}
}

/// What needs the user, for the header: unread errors and tasks waiting for a human.
public struct AttentionCounts: Sendable, Equatable {
    public var unreadErrors: Int
    public var waiting: Int
    public init(unreadErrors: Int, waiting: Int) {
        self.unreadErrors = unreadErrors
        self.waiting = waiting
    }
}

/// The whole view model. `reduce` changes it; `render` draws it.
public struct AppState: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var nowMicros: Int64
    public var mode: Mode = .follow

    /// The loaded window (visible rows plus a margin), newest first.
    public var window: [TimelineRow] = []
    /// Absolute position of `window[0]` in the filtered list.
    public var windowStart = 0
    /// How well `windowStart` is known (far down a long history, a reload estimates it).
    public var positionAccuracy = PositionAccuracy.exact
    public var windowReachesNewest = true
    public var windowReachesOldest = true
    /// Index of the selected row in `window`.
    public var selected = 0
    /// Screen line (within the list area) where the selected row is drawn.
    public var selectedLine = 0
    /// In BROWSE, true after rows arrived from the store: the selected row keeps its screen line even
    /// when that leaves blank lines below (new rows wait above, counted by `↑ N new`). The next
    /// navigation clears it.
    public var holdSelectedLine = false
    /// True once a window has been loaded (before that the screen says "loading").
    public var loadedOnce = false
    /// Set by a store change: the next window load must recount the anchor position.
    public var positionStale = false
    /// The window load asked for last: the answer to an earlier one (End, then Home before End's rows came)
    /// is stale and is dropped, so it never replaces the screen for a moment.
    public var awaitedWindow: WindowRequest?
    /// Newest key when BROWSE began, for `↑ N new`.
    public var browseBaseline: RowKey?

    public var search = SearchState()
    /// Statuses picked with 1–5 (empty: all).
    public var statusFilter: Set<Status> = []
    public var counts = Counts()
    /// Unread errors and waiting tasks (nil until the attention monitor reports).
    public var attention: AttentionCounts?
    public var detail: DetailState?
    public var helpOpen = false
    /// Task ids pinned with `P`, newest pin first (kept in the database; loaded at start), and their rows.
    public var pins: [String] = []
    public var pinnedRows: [TimelineRow] = []
    /// Task ids marked with `m` (kept in the database; loaded at start).
    public var marks: Set<String> = []
    /// Named views (config file and `:save`), in name order.
    public var views: [NamedQuery] = []
    /// The view last applied (`:view`, the picker, restored at start); shown in the header.
    public var activeView: String?
    /// The `:` command line while it is open (`:save NAME`, `:view NAME`).
    public var commandLine: String?
    /// The `v` view picker while it is open: the selected index in `views`.
    public var viewPicker: Int?
    /// First line of the help overlay shown (it scrolls when the terminal is too small for it).
    public var helpScroll = 0
    /// Rejected messages: the header's count and the `X` overlay.
    public var rejected = RejectedState()
    /// The full poller message overlay (`!`) is open.
    public var pollerMessageOpen = false
    /// A one-line message in the status bar ("back to FOLLOW", export written, view saved, a command's
    /// error); a brief one ends at `noticeUntilMicros` (0: until the next key replaces or clears it).
    public var notice: String?
    public var noticeUntilMicros: Int64 = 0
    /// The view takes the mouse (wheel, click); off, the terminal keeps it (its own text selection). `M`
    /// toggles it; the terminal switches mouse reporting to match.
    public var mouse = true
    /// The terminal's charset cannot show Unicode: `render` draws ASCII stand-ins (set by the terminal).
    public var asciiOnly = false
    public var absoluteTime = false
    /// When running tasks turn stale or time out (`--stale-after`, `--timeout-after`).
    public var runThresholds = RunThresholds()
    /// Zone for absolute times (the local zone; tests fix it).
    public var timeZone: TimeZone = .current
    public var poller: PollerStatusView = .disabled
    /// Last store error, shown in the status bar.
    public var lastError: String?
    /// Rows of a move (a burst of `j`, a page) beyond the loaded window, applied when the next window
    /// arrives, so every keypress counts however fast keys come. `pendingMoveKeepsLine`: a page move.
    public var pendingMove = 0
    public var pendingMoveKeepsLine = false
    /// Enter came while the listed rows were being replaced (a new search, a jump, the first load): the
    /// row it opens is the one selected once they arrive, not one of the rows they replace. Any other
    /// key, paste or click cancels it.
    public var pendingOpen = false
    /// Bumped whenever the list query changes; stale results are ignored.
    public var generation = 0
    public var quitRequested = false
    /// Answering agents: the open prompt, the last outcome, replies per event.
    public var answering = AnswerState()
    /// The agents view (`A`), when open.
    public var agentsView: AgentsView?

    public init(width: Int, height: Int, nowMicros: Int64) {
        self.width = width
        self.height = height
        self.nowMicros = nowMicros
    }

    /// The selected row, if any.
    public var selectedRow: TimelineRow? { window.indices.contains(selected) ? window[selected] : nil }

    /// The rows on screen are about to be replaced by others (the list's first load; a new search, Home,
    /// End: an awaited window that does not keep the selection). A row picked now would be one the user
    /// no longer sees once they arrive.
    public var listIsBeingReplaced: Bool { !loadedOnce || awaitedWindow.map { !$0.keepSelection } ?? false }

    /// Absolute 0-based position of the selection.
    public var selectedPosition: Int { windowStart + selected }

    /// True when the detail is a split pane beside the list (wide terminals).
    public var splitDetail: Bool { detail != nil && width >= Layout.splitMinWidth }

    /// Shows `text` in the status bar for `Notice.seconds` from now.
    public mutating func showNotice(_ text: String, seconds: Int64 = Notice.seconds) {
        notice = text
        noticeUntilMicros = nowMicros + seconds * 1_000_000
    }

    /// Lines available to the list.
    public var listHeight: Int { max(1, Layout.listHeight(height: height) - Pinned.lines(self)) }

    /// First screen line of the list (below the header and the pinned tasks).
    var listTop: Int { 1 + Pinned.lines(self) }
}

/// How long a status-bar notice stays.
public enum Notice {
    public static let seconds: Int64 = 3
}

/// Screen geometry shared by `reduce` (paging) and `render`.
public enum Layout {
    /// Terminals at least this wide show the detail beside the list.
    public static let splitMinWidth = 160
    /// Rows fetched beyond the visible ones on each side, in pages.
    public static let marginPages = 1
    /// Header line + status bar line.
    public static func listHeight(height: Int) -> Int { max(1, height - 2) }
    /// Width of the list pane in split mode.
    public static func listWidth(width: Int, split: Bool) -> Int { split ? width * 11 / 20 : width }
}
