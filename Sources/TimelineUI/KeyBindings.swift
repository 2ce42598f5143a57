/// One line of the help overlay: the keys, what they do in a few words, and what they do in full (`docs/keys.md`).
public struct KeyBinding: Sendable {
    /// The keys, separated by spaces (`j k ↓ ↑`).
    public let keys: String
    /// What they do, short enough for the overlay's column.
    public let summary: String
    /// What they do in full, as Markdown for the keys doc; nil when the summary says it all.
    public let detail: String?

    init(_ keys: String, _ summary: String, _ detail: String? = nil) {
        self.keys = keys
        self.summary = summary
        self.detail = detail
    }
}

/// Every key, as listed by the `?` help overlay and `docs/keys.md` (the single source for both).
public enum KeyBindings {
    public typealias Section = (title: String, keys: [KeyBinding])

    public static let move: Section = ("Move", [
        KeyBinding("j k ↓ ↑", "next / previous task",
                   "next / previous task (moving away from the top switches to BROWSE; coming back to the newest row "
                   + "returns to FOLLOW by itself, and the status bar says so)"),
        KeyBinding("Ctrl-n Ctrl-p", "next / previous task"),
        KeyBinding("PgDn PgUp", "page down / up"),
        KeyBinding("Space b", "page down / up",
                   "page down / up; Space also marks the selected task read (see `Space U`)"),
        KeyBinding("Ctrl-f Ctrl-b", "page down / up"),
        KeyBinding("Ctrl-d Ctrl-u", "half page down / up"),
        KeyBinding("G End", "oldest task (bottom)", "the oldest task (the bottom)"),
        KeyBinding("g F f Home", "FOLLOW newest (top)",
                   "back to FOLLOW: the newest task at the top, and new tasks keep it there (as `g` and `F` do in less)"),
        KeyBinding("e w", "next error / warning", "jump to the next (older) error / warning"),
        KeyBinding("E W", "prev error / warning", "jump to the previous (newer) error / warning"),
        KeyBinding("wheel click", "scroll / select", "mouse: the wheel scrolls, a click selects"),
        KeyBinding("M", "mouse on / off",
                   "mouse off / on: off, the terminal's own text selection works (start with it off: "
                   + "`mouse = false` in the config file, or `TIMELINE_MOUSE=0`)"),
    ])
    public static let search: Section = ("Search and filter", [
        KeyBinding("/", "search as you type",
                   "search as you type, in the [query syntax](queries.md). A long query scrolls to its end (where "
                   + "you type); a malformed qualifier (`since:abc`) matches nothing and its reason shows above the "
                   + "prompt; the header always marks the active search (`filter: …`), at any width. Pastes insert "
                   + "their text, with line breaks, tabs and other control characters turned into spaces"),
        KeyBinding("Tab", "filter ⇄ highlight",
                   "switch the search between filter (only matching tasks) and highlight (every task, matches marked)"),
        KeyBinding("n N", "next / previous match", "next / previous match (highlight mode)"),
        KeyBinding("⏎ Esc", "keep / clear search", "in the prompt: Enter keeps the query, Esc clears it"),
        KeyBinding("↑ ↓", "earlier searches (/)",
                   "in the prompt: recall earlier searches (the last 100 kept with Enter, stored in the database "
                   + "across restarts; ↓ past the newest brings back what you were typing)"),
        KeyBinding("1 2 3 4 5 6", "status filter on/off",
                   "toggle the info / in_progress / success / warning / error / needs_input filters"),
        KeyBinding("0", "clear status filter", "clear the status filters"),
        KeyBinding("status: task:", "and agent: category:",
                   "qualifiers typed in the search: `status:`, `agent:`, `host:`, `category:` / `project:`, "
                   + "`task:`; a leading `-` excludes"),
        KeyBinding("since: is:", "since:15m is:marked",
                   "`since:` / `until:` bound the task's newest event (`since:15m`, `until:2026-11-20`); "
                   + "`is:marked` keeps marked tasks"),
    ])
    public static let view: Section = ("View", [
        KeyBinding("⏎ l →", "open task detail",
                   "open the detail: every field, how long the event waited in the queue and how many times it was "
                   + "received, the wrapped body, the task's history newest first, the raw payload; on terminals "
                   + "160 columns or wider it is a split pane"),
        KeyBinding("Esc h ←", "close detail", "close the detail (`q` too, while a detail is open)"),
        KeyBinding("J K", "scroll detail pane",
                   "scroll the detail (in the full-screen detail also `j` `k`, Space `b`, Ctrl-d Ctrl-u, `g` `G`)"),
        KeyBinding("Space U", "read+page / all read",
                   "Space is \"seen it, go on\", like a newsreader: it marks the selected task read (when unread) "
                   + "and pages down, every time; `U` marks every task read"),
        KeyBinding("z", "expand/fold long text",
                   "a body or payload longer than a screen is folded to its first screen with a "
                   + "`… 873 KB more · z: expand` line; `z` shows it whole and folds it again"),
        KeyBinding("t", "relative/absolute time",
                   "relative ⇄ absolute time (the time of day today, `11-09 22:40` on another day, `2025-11-09` "
                   + "in another year)"),
        KeyBinding("!", "full poller message", "the poller's full message and its fix (the status bar shows a summary)"),
        KeyBinding("X", "rejected messages",
                   "rejected messages (the header counts them: `31 rejected (X)`): reason, SQS message id, when, "
                   + "and the body escaped, newest first; `j` `k` Space `b` `g` `G` scroll, any other key closes "
                   + "(`timeline rejected` lists them all)"),
        KeyBinding("R", "restart stopped poller",
                   "restart a stopped poller once the cause is fixed (queue recreated, credentials renewed); "
                   + "does nothing while it runs. In a detail, `R` resends a failed reply (see Answer agents)"),
        KeyBinding("Ctrl-l Ctrl-z", "redraw / suspend (fg)",
                   "Ctrl-l redraws the whole screen (clears what other programs wrote on it); Ctrl-z suspends to "
                   + "the shell, `fg` brings the timeline back"),
        KeyBinding("? F1", "this help",
                   "the help overlay with every key (`j` `k` scroll it on small terminals; any other key closes it)"),
        KeyBinding("q :q F10", "quit (Ctrl-c too)",
                   "quit (Ctrl-c too; `q` first closes an open detail). The terminal is restored, also on SIGTERM "
                   + "and crash signals"),
    ])
    public static let marks: Section = ("Marks and views", [
        KeyBinding("m", "mark / unmark task (*)",
                   "mark / unmark the selected task (a `*` in the row's first column; marks are kept in the "
                   + "database, `timeline mark` lists them)"),
        KeyBinding("P", "pin / unpin to the top",
                   "pin / unpin the selected task: pinned tasks are drawn first, above the list (newest pin first, "
                   + "up to a third of it), and stay pinned across restarts"),
        KeyBinding("'", "next marked task", "jump to the next marked task (wraps around)"),
        KeyBinding("x", "export task to ./…md",
                   "export the selected task's history as Markdown to `./timeline-TASK-YYYYMMDD-HHMMSS.md` "
                   + "(never replacing a file); the status bar says where"),
        KeyBinding("v", "pick a named view", "pick a named view (`j` `k`, Enter applies, Esc closes)"),
        KeyBinding(":", ":save / :view NAME",
                   "`:save NAME` saves the current search as view NAME in the config file (comments and other "
                   + "settings kept); `:view NAME` applies view NAME (its name is shown in the header). The view in "
                   + "use when you quit is restored at the next start; editing or clearing the search leaves it"),
    ])
    public static let glyphs: Section = ("Glyphs", [
        KeyBinding("● ◐ ✓ ▲ ✗", "info run ok warn error",
                   "info (blue), in_progress (yellow), success (green), warning (orange), error (red)"),
        KeyBinding("?", "needs you (input)", "needs_input (magenta): the agent waits for you"),
        KeyBinding("⠋ ◌ •", "live / stale / unread",
                   "a live in_progress task (spinning) / stale: no update for `stale_after` (10 minutes) / unread: "
                   + "its newest event arrived since you last looked"),
    ])
    public static let answer: Section = ("Answer agents", [
        KeyBinding("i", "jump to who waits",
                   "jump to the task that has waited longest for input and open it (`? N need you (i)` in the "
                   + "header; with a filter that hides them it still counts every waiting task)"),
        KeyBinding("1 2 3", "pick action (detail)",
                   "in a detail with buttons (`[1 Deploy] [2 Cancel]`): pick that action, `1` to `6` (or Tab to a "
                   + "button, then Enter). The confirmation shows `Send \"Deploy\"`, where it goes (`to queue "
                   + "agent-replies (account 123456789012, sqs.eu-west-1.amazonaws.com)?`, or the webhook's whole "
                   + "URL) and `y/N`"),
        KeyBinding("y", "send (else: cancel)", "send what the confirmation shows; any other key cancels (nothing is sent)"),
        KeyBinding("r R", "text reply / resend",
                   "`r` replies with a line of text to the agent's `reply_to` (Enter shows it for confirmation, `y` "
                   + "sends, Esc cancels); `R` sends a failed reply again (same reply id)"),
        KeyBinding("A", "agents · r message",
                   "agents: last seen, running / error / waiting counts, whether each takes messages; `r` messages "
                   + "the selected one"),
    ])

    /// Two columns: movement keys, marks and views, glyphs; then search and view keys and answering (scrolls when it
    /// does not fit).
    public static let columns: [[Section]] = [[move, marks, glyphs], [search, view, answer]]
}

/// Geometry of the help overlay, shared by `reduce` (scrolling) and `render`.
enum HelpLayout {
    static let keyWidth = 15
    static let columnWidth = keyWidth + 22

    typealias Line = (key: String, text: String, heading: Bool)

    static func twoColumns(width: Int) -> Bool { width >= 2 * columnWidth + 5 }

    /// The overlay's columns of lines (two side by side when wide enough, else one).
    static func columns(width: Int) -> [[Line]] {
        func lines(_ sections: [KeyBindings.Section]) -> [Line] {
            var out: [Line] = []
            for (i, section) in sections.enumerated() {
                if i > 0 { out.append(("", "", false)) }
                out.append((section.title, "", true))
                for binding in section.keys { out.append((binding.keys, binding.summary, false)) }
            }
            return out
        }
        return twoColumns(width: width) ? KeyBindings.columns.map(lines) : [lines(KeyBindings.columns.flatMap { $0 })]
    }

    static func longest(width: Int) -> Int { columns(width: width).map(\.count).max() ?? 0 }

    /// Rows inside the border: all lines and a blank one above and below when they fit, else the whole screen.
    static func innerHeight(width: Int, height: Int) -> Int { min(height - 2, longest(width: width) + 2) }

    /// Lines of keys shown at once.
    static func visibleLines(_ s: AppState) -> Int {
        let inner = innerHeight(width: s.width, height: s.height)
        return max(1, inner >= longest(width: s.width) + 2 ? longest(width: s.width) : inner)
    }

    /// Lines that do not fit (the most the overlay scrolls).
    static func hiddenLines(_ s: AppState) -> Int { max(0, longest(width: s.width) - visibleLines(s)) }
}

/// Draws the help overlay as a centered box; it scrolls (j/k) when the terminal is too small for it.
func renderHelp(_ state: AppState, into screen: inout Screen) {
    let keyWidth = HelpLayout.keyWidth
    let columnWidth = HelpLayout.columnWidth
    let twoColumns = HelpLayout.twoColumns(width: screen.width)
    let columns = HelpLayout.columns(width: screen.width)
    let innerWidth = min(screen.width - 2, twoColumns ? 2 * columnWidth + 3 : columnWidth + 2)
    let innerHeight = HelpLayout.innerHeight(width: screen.width, height: screen.height)
    guard innerWidth > 6, innerHeight >= 1 else { return }
    let visible = HelpLayout.visibleLines(state)
    let hidden = HelpLayout.hiddenLines(state)
    let scroll = min(max(0, state.helpScroll), hidden)
    let top = innerHeight > visible ? 2 : 1
    let box = OverlayBox(innerWidth: innerWidth, innerHeight: innerHeight, centeredOn: screen)
    let (x0, y0) = (box.x0, box.y0)
    let border = Style(fg: .accent, bold: true)
    let long = " Keys · any key closes "
    box.draw(title: TextWidth.of(long) <= box.titleRoom ? long : " Keys ", style: border, into: &screen)
    if hidden > 0 {
        let more = "\(scroll > 0 ? "↑" : " ")\(scroll < hidden ? "↓" : " ") j/k "
        screen.put(more, x: x0 + max(1, innerWidth - TextWidth.of(more)), y: y0 + innerHeight + 1, style: border,
                   limit: innerWidth)
    }
    for (c, column) in columns.enumerated() {
        let cx = x0 + (innerWidth < columnWidth ? 1 : 2) + c * (columnWidth + 2)
        let room = x0 + innerWidth + 1 - cx
        for (i, line) in column.dropFirst(scroll).prefix(visible).enumerated() {
            let y = y0 + top + i
            if line.heading {
                screen.put(line.key, x: cx, y: y, style: Style(fg: .accent, bold: true), limit: min(columnWidth, room))
            } else {
                let keys = min(keyWidth, max(6, room / 2))
                screen.put(line.key, x: cx, y: y, style: Style(bold: true), limit: keys - 1)
                screen.put(line.text, x: cx + keys, y: y, style: .plain, limit: min(22, room - keys))
            }
        }
    }
}
