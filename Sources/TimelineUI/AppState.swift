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
    public init() {}
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
    /// Newest key when BROWSE began, for `↑ N new`.
    public var browseBaseline: RowKey?

    public var search = SearchState()
    /// Statuses picked with 1–5 (empty: all).
    public var statusFilter: Set<Status> = []
    public var counts = Counts()
    public var detail: DetailState?
    public var helpOpen = false
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
    /// A one-line message in the status bar (export written, view saved, a command's error).
    public var notice: String?
    public var absoluteTime = false
    /// Zone for absolute times (the local zone; tests fix it).
    public var timeZone: TimeZone = .current
    public var poller: PollerStatusView = .disabled
    /// Last store error, shown in the status bar.
    public var lastError: String?
    /// `g` pressed, waiting for the second `g`.
    public var pendingG = false
    /// Bumped whenever the list query changes; stale results are ignored.
    public var generation = 0
    public var quitRequested = false

    public init(width: Int, height: Int, nowMicros: Int64) {
        self.width = width
        self.height = height
        self.nowMicros = nowMicros
    }

    /// The selected row, if any.
    public var selectedRow: TimelineRow? { window.indices.contains(selected) ? window[selected] : nil }

    /// Absolute 0-based position of the selection.
    public var selectedPosition: Int { windowStart + selected }

    /// True when the detail is a split pane beside the list (wide terminals).
    public var splitDetail: Bool { detail != nil && width >= Layout.splitMinWidth }

    /// Lines available to the list.
    public var listHeight: Int { Layout.listHeight(height: height) }
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
