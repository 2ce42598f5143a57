import Foundation
import Testing
import TimelineCore
@testable import TimelineUI

/// What a key binding may change, compared whole: a case states every field it expects to differ from the
/// state before the input, so an unexpected change anywhere fails too.
struct ViewSnapshot: Equatable, CustomStringConvertible {
    var mode: Mode
    var selected: String?
    var line: Int
    var detail: String?
    var detailScroll: Int
    var help = false
    var prompt = false
    var search = ""
    var kind = SearchState.Kind.filter
    var statuses: [Status] = []
    var absoluteTime = false
    var notice: String?
    var quit = false
    var message = false
    var rows: Int
    /// The answer prompt ("confirm Deploy" / "text"), the reply notice, and whether the agents view is open.
    var answer: String?
    var answerNotice: String?
    var agents = false
    var focus: Int?
    var marks: [String] = []
    var commandLine: String?
    var picker: Int?
    var view: String?
    var appNotice: String?
    var unread: [String] = []
    var rejected = false
    var mouse = true

    init(_ s: AppState) {
        mode = s.mode
        selected = s.selectedRow?.taskID
        line = s.selectedLine
        detail = s.detail?.taskID
        detailScroll = s.detail?.scroll ?? 0
        help = s.helpOpen
        prompt = s.search.promptOpen
        search = s.search.text
        kind = s.search.kind
        statuses = Status.allCases.filter(s.statusFilter.contains)
        absoluteTime = s.absoluteTime
        notice = s.search.notice
        quit = s.quitRequested
        message = s.pollerMessageOpen
        rows = s.window.count
        switch s.answering.prompt {
        case .confirm(let record)?: answer = "confirm \(record.answerText)"
        case .text(let typing)?: answer = "text \(typing.text)"
        case nil: answer = nil
        }
        answerNotice = s.answering.notice
        agents = s.agentsView != nil
        focus = s.answering.focus?.index
        marks = s.marks.sorted()
        commandLine = s.commandLine
        picker = s.viewPicker
        view = s.activeView
        appNotice = s.notice
        unread = s.window.filter(\.unread).map(\.taskID)
        rejected = s.rejected.open
        mouse = s.mouse
    }

    var description: String {
        "\(mode.rawValue) sel=\(selected ?? "-")@\(line) detail=\(detail ?? "-")+\(detailScroll) help=\(help) "
            + "prompt=\(prompt) search=\(search.debugDescription)/\(kind) statuses=\(statuses) abs=\(absoluteTime) "
            + "notice=\(notice ?? "-") quit=\(quit) rows=\(rows) answer=\(answer ?? "-") "
            + "answerNotice=\(answerNotice ?? "-") agents=\(agents) marks=\(marks) "
            + "command=\(commandLine ?? "-") picker=\(picker.map(String.init) ?? "-") view=\(view ?? "-") app=\(appNotice ?? "-") "
            + "unread=\(unread) rejected=\(rejected) mouse=\(mouse)"
    }
}

/// An effect in a line: what it loads and from where (generations and margins left out).
func summary(_ effect: Effect) -> String {
    func query(_ q: TimelineQuery) -> String {
        (q.terms + Status.allCases.filter(q.statuses.contains).map { "status:\($0.rawValue)" }
            + (q.marked == true ? ["is:marked"] : [])).joined(separator: " ")
    }
    switch effect {
    case .loadWindow(let r):
        switch r.anchor {
        case .newest: return "window newest"
        case .oldest: return "window oldest"
        case .row(let task, _): return "window around \(task)"
        }
    case .loadCounts: return "counts"
    case .loadHistory(let task): return "history \(task)"
    case .findMatch(let r): return "find \(r.olderFirst ? "older" : "newer") \(query(r.query))"
    case .sendReply(let record): return "send \(record.reply.answer) to \(record.destination.url)"
    case .loadReplies(let ids): return "replies of \(ids.joined(separator: ","))"
    case .loadAgents: return "agents"
    case .markRead(let task, let seq): return "mark read \(task)@\(seq)"
    case .markAllRead: return "mark all read"
    case .restartPoller: return "restart poller"
    case .quit: return "quit"
    case .setMark(let task, let marked): return "\(marked ? "mark" : "unmark") \(task)"
    case .saveView(let view): return "save view \(view.name)"
    case .rememberView(let name): return "remember view \(name ?? "-")"
    case .rememberSearches(let history): return "remember searches \(history.joined(separator: "|"))"
    case .exportHistory(let task): return "export \(task)"
    case .loadRejected(let limit): return "rejected \(limit)"
    case .loadPinned(let ids): return "pinned rows \(ids.joined(separator: ","))"
    case .setPins(let ids): return "pins \(ids.joined(separator: ","))"
    }
}

/// 40 tasks, T40 newest; every 4th an error, every 7th a warning, every 5th titled "needle"; T40 has a
/// long body (for detail scrolling).
func bindingFixture() -> InMemoryTimeline {
    InMemoryTimeline((1...40).map { i in
        let status: Status = i % 4 == 0 ? .error : i % 7 == 0 ? .warning : .info
        let body = i == 40 ? (1...60).map { "body line \($0)" }.joined(separator: "\n") : ""
        return makeRow("T\(i)", i % 5 == 0 ? "needle \(i)" : "hay \(i)", status: status, secondsAgo: Int64(1000 - i),
                       body: body, seq: Int64(i))
    })
}

/// Where a case starts: a named sequence of inputs from a fresh view.
struct Start: CustomStringConvertible, Sendable {
    var description: String
    var width = 80
    var setup: @Sendable (inout SyncDriver) -> Void = { _ in }

    func driver() -> SyncDriver {
        var d = SyncDriver(bindingFixture(), width: width, height: 12)
        setup(&d)
        return d
    }

    static let follow = Start(description: "FOLLOW at the newest")
    static let browse = Start(description: "BROWSE on T37") { $0.press(.char("j"), .char("j"), .char("j")) }
    static let prompt = Start(description: "search prompt open") { $0.press(.char("/")) }
    static let typed = Start(description: "prompt with \"needle 1\"") { $0.press(.char("/")); $0.type("needle 1") }
    static let filtered = Start(description: "filter \"needle\" kept") {
        $0.press(.char("/")); $0.type("needle"); $0.press(.enter)
    }
    static let highlighted = Start(description: "highlight \"needle\" kept") {
        $0.press(.char("/")); $0.type("needle"); $0.press(.tab, .enter)
    }
    static let detail = Start(description: "full-screen detail of T40") { $0.press(.enter) }
    static let expandedDetail = Start(description: "full-screen detail of T40, long text expanded") {
        $0.press(.enter, .char("z"))
    }
    static let detailScrolled = Start(description: "detail of T40 scrolled 10") {
        $0.press(.enter); for _ in 0..<10 { $0.press(.char("j")) }
    }
    static let split = Start(description: "split detail of T39 (160 wide)", width: 160) { $0.press(.char("j"), .enter) }
    static let help = Start(description: "help open") { $0.press(.char("?")) }
    static let mouseOff = Start(description: "mouse off") { $0.press(.char("M")) }
    static let rejectedOpen = Start(description: "rejected messages open") { $0.press(.char("X")) }
    static let errorsOnly = Start(description: "status filter error") { $0.press(.char("5")) }
    /// T40's detail, its latest event replaced by a question with two actions and a reply queue.
    static let asking = Start(description: "detail of T40 asking [1 Deploy] [2 Cancel]") {
        $0.press(.enter)
        let raw = #"{"id":"ev-40","agent_id":"builder-1","task_id":"T40","title":"Deploy?","status":"needs_input","timestamp":"2026-11-22T02:50:00Z","actions":[{"id":"deploy","label":"Deploy"},{"id":"cancel","label":"Cancel"}],"reply_to":"https://sqs.eu-west-1.amazonaws.com/123456789012/replies"}"#
        let event = try! EventParser.parse(raw).get()
        let row = TimelineRow(event: event, seq: 40, eventCount: 1, receivedMicros: event.timestampMicros)
        $0.send(.historyLoaded(HistoryResult(taskID: "T40", row: row, events: [event])))
    }
    static let confirming = Start(description: "asking, 1 pressed") { asking.setup(&$0); $0.press(.char("1")) }
    static let focused = Start(description: "asking, Tab pressed") { asking.setup(&$0); $0.press(.tab) }
    static let agentsOpen = Start(description: "agents view open") { $0.press(.char("A")) }
    static let marked = Start(description: "T40 marked") { $0.press(.char("m")) }
    static let unreadSelected = Start(description: "FOLLOW on T40, unread") { $0.state.window[0].unread = true }
    static let markedBelow = Start(description: "T36 marked, FOLLOW") {
        $0.press(.char("j"), .char("j"), .char("j"), .char("j"), .char("m"), .char("f"))
    }
    static let views = Start(description: "two views") {
        $0.state.views = [NamedQuery(name: "errors", query: "status:error"), NamedQuery(name: "needles", query: "needle")]
    }
    static let picker = Start(description: "view picker open") {
        $0.state.views = [NamedQuery(name: "errors", query: "status:error"), NamedQuery(name: "needles", query: "needle")]
        $0.press(.char("v"))
    }
    static let command = Start(description: "command line \"view needles\"") {
        $0.state.views = [NamedQuery(name: "errors", query: "status:error"), NamedQuery(name: "needles", query: "needle")]
        $0.press(.char(":")); $0.type("view needles")
    }
    static let viewApplied = Start(description: "view \"needles\" applied") {
        $0.state.views = [NamedQuery(name: "errors", query: "status:error"), NamedQuery(name: "needles", query: "needle")]
        $0.press(.char(":")); $0.type("view needles"); $0.press(.enter)
    }
    static let colonQ = Start(description: "command line \"q\"") { $0.press(.char(":"), .char("q")) }
    /// "needle" and "hay 3" kept, the prompt open again with "hay" typed, ↑ pressed once ("hay 3" shown).
    static let recalling = Start(description: "history [needle, hay 3], \"hay\" typed, ↑ once") {
        $0.press(.char("/")); $0.type("needle"); $0.press(.enter, .char("/"), .ctrl("u")); $0.type("hay 3"); $0.press(.enter)
        $0.press(.char("/"), .ctrl("u")); $0.type("hay"); $0.press(.up)
    }
    static let saveCommand = Start(description: "filter \"needle\", command line \"save n\"") {
        $0.press(.char("/")); $0.type("needle"); $0.press(.enter, .char(":")); $0.type("save n")
    }
}

/// One row of the table: from `start`, `input` returns `effects`; once they are answered the view differs
/// from before exactly by `change`.
struct BindingCase: CustomTestStringConvertible, Sendable {
    var start: Start
    var input: Input
    var effects: [String]
    var change: @Sendable (inout ViewSnapshot) -> Void
    var testDescription: String { "\(start) + \(input)" }
}

private func at(_ start: Start, _ input: Input, _ effects: [String],
                _ change: @escaping @Sendable (inout ViewSnapshot) -> Void) -> BindingCase {
    BindingCase(start: start, input: input, effects: effects, change: change)
}

private func key(_ k: Key) -> Input { .key(k) }

/// Every binding listed by `KeyBindings` (and the inputs that are not keys), in each mode it acts in.
let bindingTable: [BindingCase] = [
    // Move (list)
    at(.follow, key(.char("j")), []) { $0.mode = .browse; $0.selected = "T39"; $0.line = 1 },
    at(.follow, key(.down), []) { $0.mode = .browse; $0.selected = "T39"; $0.line = 1 },
    at(.browse, key(.char("k")), []) { $0.selected = "T38"; $0.line = 2 },
    at(.browse, key(.up), []) { $0.selected = "T38"; $0.line = 2 },
    at(.follow, key(.char("k")), []) { _ in },
    at(.follow, key(.pageDown), []) { $0.mode = .browse; $0.selected = "T30" },
    // Space marks an unread selected task read and pages down; on a read one it only pages. U marks every task read.
    at(.unreadSelected, key(.char(" ")), ["mark read T40@40"]) { $0.unread = []; $0.mode = .browse; $0.selected = "T30" },
    at(.follow, key(.char(" ")), []) { $0.mode = .browse; $0.selected = "T30" },
    at(.follow, key(.char("U")), ["mark all read"]) { _ in },
    at(.browse, key(.pageDown), ["window around T27"]) { $0.selected = "T27"; $0.rows = 40 },
    // Back on the newest row returns to FOLLOW by itself.
    at(.browse, key(.pageUp), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW" },
    at(.browse, key(.char("b")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW" },
    at(.browse, key(.ctrl("b")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW" },
    at(.follow, key(.ctrl("f")), []) { $0.mode = .browse; $0.selected = "T30" },
    at(.follow, key(.ctrl("n")), []) { $0.mode = .browse; $0.selected = "T39"; $0.line = 1 },
    at(.browse, key(.ctrl("p")), []) { $0.selected = "T38"; $0.line = 2 },
    at(.follow, key(.ctrl("d")), []) { $0.mode = .browse; $0.selected = "T35" },
    at(.browse, key(.ctrl("u")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW" },
    at(.follow, key(.char("G")), ["window oldest"]) { $0.mode = .browse; $0.selected = "T1"; $0.line = 9; $0.rows = 22 },
    at(.follow, key(.end), ["window oldest"]) { $0.mode = .browse; $0.selected = "T1"; $0.line = 9; $0.rows = 22 },
    at(.browse, key(.char("f")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0 },
    at(.browse, key(.home), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0 },
    at(.browse, key(.char("g")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0 },
    at(.browse, key(.char("F")), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0 },
    // E/W look newer (up); past the newest they wrap around to the oldest.
    at(.browse, key(.char("E")), ["find newer status:error"]) {
        $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW"
    },
    at(.browse, key(.char("W")), ["find newer status:warning"]) { $0.selected = "T7"; $0.line = 3; $0.notice = "search wrapped" },
    at(.follow, key(.function(10)), ["quit"]) { $0.quit = true },
    at(.detail, key(.function(10)), ["quit"]) { $0.quit = true },
    at(.follow, key(.char("e")), ["find older status:error"]) { $0.mode = .browse; $0.selected = "T36"; $0.line = 4 },
    at(.follow, key(.char("w")), ["find older status:warning"]) { $0.mode = .browse; $0.selected = "T35"; $0.line = 5 },
    at(.browse, .mouse(.wheelDown(x: 5, y: 5)), []) { $0.selected = "T34"; $0.line = 6 },
    at(.browse, .mouse(.wheelUp(x: 5, y: 5)), ["window newest", "counts"]) { $0.mode = .follow; $0.selected = "T40"; $0.line = 0; $0.appNotice = "back at the newest: FOLLOW" },
    at(.follow, .mouse(.click(x: 5, y: 4)), []) { $0.mode = .browse; $0.selected = "T37"; $0.line = 3 },
    at(.follow, .mouse(.click(x: 5, y: 0)), []) { _ in },  // the header is no row

    // Search and filter (list)
    at(.follow, key(.char("/")), []) { $0.prompt = true },
    at(.filtered, key(.tab), ["window newest", "counts"]) { $0.kind = .highlight; $0.rows = 22 },
    at(.follow, key(.tab), []) { _ in },  // nothing to switch without a search
    at(.highlighted, key(.char("n")), ["find older needle"]) { $0.mode = .browse; $0.selected = "T35"; $0.line = 5 },
    at(.highlighted, key(.char("N")), ["find newer needle"]) {
        $0.mode = .browse; $0.selected = "T5"; $0.line = 5; $0.notice = "search wrapped"; $0.rows = 20
    },
    at(.browse, key(.char("n")), []) { $0.selected = "T36"; $0.line = 4 },  // no search: like j
    at(.browse, key(.char("N")), []) { $0.selected = "T38"; $0.line = 2 },  // no search: like k
    at(.filtered, key(.escape), ["window newest", "counts"]) { $0.search = ""; $0.rows = 11 },
    at(.follow, key(.char("1")), ["window newest", "counts"]) { $0.statuses = [.info] ; $0.selected = "T39"; $0.rows = 11 },
    at(.follow, key(.char("2")), ["window newest", "counts"]) { $0.statuses = [.inProgress]; $0.selected = nil; $0.rows = 0 },
    at(.follow, key(.char("3")), ["window newest", "counts"]) { $0.statuses = [.success]; $0.selected = nil; $0.rows = 0 },
    at(.follow, key(.char("4")), ["window newest", "counts"]) { $0.statuses = [.warning]; $0.selected = "T35"; $0.rows = 4 },
    at(.follow, key(.char("5")), ["window newest", "counts"]) { $0.statuses = [.error]; $0.rows = 10 },
    at(.errorsOnly, key(.char("5")), ["window newest", "counts"]) { $0.statuses = []; $0.rows = 11 },
    at(.errorsOnly, key(.char("0")), ["window newest", "counts"]) { $0.statuses = []; $0.rows = 11 },
    at(.follow, key(.char("0")), []) { _ in },
    at(.follow, key(.char("6")), ["window newest", "counts"]) { $0.statuses = [.needsInput]; $0.selected = nil; $0.rows = 0 },

    // Answering agents
    at(.follow, key(.char("i")), ["find newer status:needs_input"]) { $0.answerNotice = "no agent is waiting for you" },
    at(.asking, key(.char("1")), []) { $0.answer = "confirm Deploy" },
    at(.asking, key(.char("2")), []) { $0.answer = "confirm Cancel" },
    at(.asking, key(.char("3")), []) { _ in },  // no third action: nothing
    at(.asking, key(.tab), []) { $0.focus = 0 },
    at(.focused, key(.tab), []) { $0.focus = 1 },
    at(.focused, key(.enter), []) { $0.answer = "confirm Deploy" },
    at(.asking, key(.enter), []) { $0.detail = nil },  // no button focused: Enter closes, as before
    at(.detail, key(.char("1")), []) { _ in },  // no actions: nothing
    at(.confirming, key(.char("y")), ["send action(\"deploy\") to https://sqs.eu-west-1.amazonaws.com/123456789012/replies"]) {
        $0.answer = nil; $0.answerNotice = "sending \"Deploy\" to queue replies…"
    },
    at(.confirming, key(.char("n")), []) { $0.answer = nil; $0.answerNotice = "cancelled: nothing sent" },
    at(.confirming, key(.escape), []) { $0.answer = nil; $0.answerNotice = "cancelled: nothing sent" },
    at(.asking, key(.char("r")), []) { $0.answer = "text " },
    at(.detail, key(.char("r")), []) { $0.answerNotice = "this agent takes no messages: its latest event names no reply_to" },
    at(.asking, key(.char("R")), []) { $0.answerNotice = "no reply of this task is waiting to be sent again" },
    at(.follow, key(.char("A")), ["agents"]) { $0.agents = true },
    at(.agentsOpen, key(.escape), []) { $0.agents = false },
    at(.agentsOpen, key(.char("r")), []) { _ in },  // no agents in this store: nothing to message

    // The search prompt
    at(.prompt, key(.char("x")), ["window newest", "counts"]) { $0.search = "x"; $0.selected = nil; $0.rows = 0 },
    at(.typed, key(.backspace), ["window newest", "counts"]) { $0.search = "needle "; $0.selected = "T40"; $0.rows = 8 },
    at(.typed, key(.ctrl("w")), ["window newest", "counts"]) { $0.search = "needle "; $0.selected = "T40"; $0.rows = 8 },
    at(.typed, key(.ctrl("u")), ["window newest", "counts"]) { $0.search = ""; $0.selected = "T40"; $0.rows = 11 },
    // T40 matches "needle 1" (its agent is builder-1), so switching to highlight stays on it.
    at(.typed, key(.tab), ["window newest", "counts"]) { $0.kind = .highlight; $0.rows = 22 },
    at(.typed, key(.backTab), ["window newest", "counts"]) { $0.kind = .highlight; $0.rows = 22 },
    at(.prompt, key(.tab), ["window newest", "counts"]) { $0.kind = .highlight },
    at(.filtered, key(.char("/")), []) { $0.prompt = true },
    at(.highlighted, key(.char("/")), []) { $0.prompt = true },
    at(.typed, key(.enter), ["remember searches needle 1"]) { $0.prompt = false },
    at(.typed, key(.escape), ["window newest", "counts"]) {
        $0.prompt = false; $0.search = ""; $0.selected = "T40"; $0.rows = 11
    },
    at(.prompt, key(.escape), []) { $0.prompt = false },
    at(.prompt, key(.down), []) { _ in },  // no history yet
    at(.prompt, key(.up), []) { _ in },
    // ↑ recalls the kept searches, newest first; ↓ goes back to what was being typed.
    at(.recalling, key(.up), ["window newest", "counts"]) { $0.search = "needle"; $0.selected = "T40"; $0.rows = 8 },
    at(.recalling, key(.down), ["window newest", "counts"]) { $0.search = "hay"; $0.rows = 11 },
    at(.prompt, key(.char("j")), ["window newest", "counts"]) { $0.search = "j"; $0.selected = nil; $0.rows = 0 },

    // View (list and detail)
    at(.follow, key(.enter), ["history T40"]) { $0.detail = "T40" },
    at(.follow, key(.char("l")), ["history T40"]) { $0.detail = "T40" },
    at(.follow, key(.right), ["history T40"]) { $0.detail = "T40" },
    at(.detail, key(.escape), []) { $0.detail = nil },
    at(.detail, key(.char("h")), []) { $0.detail = nil },
    at(.detail, key(.left), []) { $0.detail = nil },
    at(.detail, key(.char("q")), []) { $0.detail = nil },
    at(.detail, key(.enter), []) { $0.detail = nil },
    at(.detail, key(.char("j")), []) { $0.detailScroll = 1 },
    at(.detail, key(.char("J")), []) { $0.detailScroll = 1 },
    at(.detail, key(.ctrl("n")), []) { $0.detailScroll = 1 },
    at(.detailScrolled, key(.char("K")), []) { $0.detailScroll = 9 },
    at(.detail, key(.ctrl("f")), []) { $0.detailScroll = 9 },
    at(.detailScrolled, key(.char("b")), []) { $0.detailScroll = 1 },
    at(.detail, key(.down), []) { $0.detailScroll = 1 },
    at(.detailScrolled, key(.char("k")), []) { $0.detailScroll = 9 },
    at(.detailScrolled, key(.up), []) { $0.detailScroll = 9 },
    at(.detail, key(.pageDown), []) { $0.detailScroll = 9 },
    at(.detail, key(.char(" ")), []) { $0.detailScroll = 9 },
    at(.detailScrolled, key(.pageUp), []) { $0.detailScroll = 1 },
    at(.detail, key(.ctrl("d")), []) { $0.detailScroll = 4 },
    at(.detailScrolled, key(.ctrl("u")), []) { $0.detailScroll = 6 },
    at(.detail, key(.char("G")), []) { $0.detailScroll = 11 },  // the long body folded to its first screen; 9 visible
    at(.detail, key(.end), []) { $0.detailScroll = 11 },
    at(.detail, key(.char("z")), []) { _ in },  // expands in place: the scroll position stays
    at(.expandedDetail, key(.char("G")), []) { $0.detailScroll = 67 },  // 76 lines, 9 visible (and the indicator)
    at(.expandedDetail, key(.char("z")), []) { _ in },  // folds again
    at(.detailScrolled, key(.home), []) { $0.detailScroll = 0 },
    at(.detailScrolled, key(.char("g")), []) { $0.detailScroll = 0 },
    at(.detail, key(.char("t")), []) { $0.absoluteTime = true },
    at(.detail, key(.char("?")), []) { $0.help = true },
    at(.split, key(.char("J")), []) { $0.detailScroll = 1 },
    at(.split, key(.char("K")), []) { _ in },
    at(.split, key(.char("j")), ["history T38"]) { $0.selected = "T38"; $0.line = 2; $0.detail = "T38" },
    at(.split, key(.escape), []) { $0.detail = nil },
    at(.split, .mouse(.wheelDown(x: 100, y: 5)), []) { $0.detailScroll = 3 },
    at(.follow, key(.char("t")), []) { $0.absoluteTime = true },
    at(.follow, key(.char("M")), []) { $0.mouse = false; $0.appNotice = "mouse off: the terminal selects text (M: on)" },
    at(.mouseOff, key(.char("M")), []) { $0.mouse = true; $0.appNotice = "mouse on: wheel scrolls, click selects (M: off)" },
    at(.detail, key(.char("M")), []) { $0.mouse = false; $0.appNotice = "mouse off: the terminal selects text (M: on)" },
    at(.follow, key(.char("?")), []) { $0.help = true },
    at(.help, key(.char("x")), []) { $0.help = false },  // any other key closes help, and does nothing else
    at(.help, key(.char("j")), []) { _ in },  // 80x12 is too small for the help: j scrolls it
    at(.follow, key(.function(1)), []) { $0.help = true },
    at(.follow, key(.char("!")), []) { $0.message = true },
    at(.follow, key(.char("X")), ["rejected 200"]) { $0.rejected = true },
    at(.detail, key(.char("X")), ["rejected 200"]) { $0.rejected = true },
    at(.rejectedOpen, key(.char("j")), []) { _ in },  // nothing to scroll in this store
    at(.rejectedOpen, key(.char("q")), []) { $0.rejected = false },  // any other key closes it, and does nothing else
    at(.follow, key(.char("R")), []) { _ in },  // the poller is not stopped: nothing to restart
    at(.follow, key(.ctrl("l")), []) { _ in },  // the terminal repaints (TerminalApp), the state stays
    at(.follow, key(.ctrl("z")), []) { _ in },  // the terminal suspends (TerminalApp), the state stays
    at(.help, .mouse(.click(x: 5, y: 4)), []) { $0.help = false },
    at(.follow, key(.char("q")), ["quit"]) { $0.quit = true },
    at(.detail, key(.ctrl("c")), ["quit"]) { $0.quit = true },
    at(.prompt, key(.ctrl("c")), ["quit"]) { $0.quit = true },
    at(.follow, key(.char("z")), []) { _ in },  // unbound

    // Marks and views
    at(.follow, key(.char("m")), ["mark T40"]) { $0.marks = ["T40"] },
    at(.browse, key(.char("P")), ["pins T37", "window around T37"]) { $0.appNotice = "pinned T37 to the top (P again unpins)"; $0.rows = 27 },
    at(.marked, key(.char("m")), ["unmark T40"]) { $0.marks = [] },
    at(.follow, key(.char("'")), []) { $0.appNotice = "no marked tasks: m marks the selected one" },
    at(.markedBelow, key(.char("'")), ["find older is:marked"]) { $0.mode = .browse; $0.selected = "T36"; $0.line = 4 },
    at(.follow, key(.char("x")), ["export T40"]) { $0.appNotice = "exporting…" },
    at(.detail, key(.char("x")), ["export T40"]) { $0.appNotice = "exporting…" },
    at(.follow, key(.char("v")), []) {
        $0.appNotice = "no views yet: search with /, then :save NAME (or add [views.NAME] to the config file)"
    },
    at(.views, key(.char("v")), []) { $0.picker = 0 },
    at(.picker, key(.char("j")), []) { $0.picker = 1 },
    at(.picker, key(.escape), []) { $0.picker = nil },
    at(.picker, key(.enter), ["window newest", "counts", "remember view errors"]) {
        $0.picker = nil; $0.view = "errors"; $0.search = "status:error"; $0.rows = 10
    },
    at(.follow, key(.char(":")), []) { $0.commandLine = "" },
    at(.command, key(.enter), ["window newest", "counts", "remember view needles"]) {
        $0.commandLine = nil; $0.view = "needles"; $0.search = "needle"; $0.rows = 8
    },
    at(.command, key(.escape), []) { $0.commandLine = nil },
    at(.colonQ, key(.enter), ["quit"]) { $0.commandLine = nil; $0.quit = true },
    at(.viewApplied, key(.escape), ["window newest", "counts", "remember view -"]) { $0.view = nil; $0.search = ""; $0.rows = 11 },
    at(.viewApplied, key(.tab), ["window newest", "counts"]) { $0.kind = .highlight; $0.rows = 22 },
    at(.saveCommand, key(.enter), ["save view n", "remember view n"]) {
        $0.commandLine = nil; $0.view = "n"; $0.appNotice = "saving view n…"
    },

    // Not keys: size, time and the store
    at(.browse, .resize(width: 100, height: 30), ["window around T37"]) { $0.rows = 40 },
    at(.browse, .tick(nowMicros: fixedNow + 1_000_000), []) { _ in },
    // A reload of the newest rows after a commit reads one screenful (the margin follows on the first move).
    at(.follow, .storeChanged, ["window newest", "counts", "rejected 0"]) { $0.rows = 11 },
    at(.detail, .storeChanged, ["window newest", "counts", "history T40", "rejected 0"]) { $0.rows = 11 },
    at(.rejectedOpen, .storeChanged, ["window newest", "counts", "rejected 200"]) { $0.rows = 11 },
]

@Suite("Key bindings: (state, input) → (state, effects)")
struct KeyBindingTableTests {
    @Test(arguments: bindingTable)
    func binding(_ row: BindingCase) {
        var driver = row.start.driver()
        var expected = ViewSnapshot(driver.state)
        row.change(&expected)
        let effects = driver.send(row.input)
        #expect(effects.map(summary) == row.effects)
        #expect(ViewSnapshot(driver.state) == expected)
    }

    /// After a store change in FOLLOW only a screenful is loaded; the first moves away from the newest rows
    /// load the margin, so paging on from there works as from a full window.
    @Test func movesAfterAOneScreenReloadLoadTheMargin() {
        var driver = Start.follow.driver()
        _ = driver.send(.storeChanged)
        #expect(ViewSnapshot(driver.state).rows == 11)
        var loads: [String] = []
        for _ in 0..<3 { loads += driver.send(.key(.pageDown)).map(summary).filter { $0.hasPrefix("window") } }
        #expect(!loads.isEmpty, "paging past the screenful loaded more rows")
        #expect(ViewSnapshot(driver.state).rows > 11)
        #expect(ViewSnapshot(driver.state).selected == "T10", "three pages of 10 rows down from T40")
    }

    /// Every key the help overlay lists appears in the table (so a new binding needs a row).
    @Test func everyListedKeyHasARow() {
        let covered = Set(bindingTable.compactMap { row -> String? in
            switch row.input {
            case .key(let k): return name(k)
            case .mouse(.wheelUp), .mouse(.wheelDown): return "wheel"
            case .mouse(.click): return "click"
            default: return nil
            }
        })
        let listed = KeyBindings.columns.flatMap { $0 }.filter { $0.title != "Glyphs" }.flatMap(\.keys)
            .flatMap { $0.keys.split(separator: " ").map(String.init) }
            .filter { !$0.hasSuffix(":") }  // search qualifiers, not keys
            .map { $0 == ":q" ? ":" : $0 }  // :q is the command line's (its row: command line "q" + ⏎)
        for key in listed { #expect(covered.contains(key), "no row for \(key)") }
    }

    private func name(_ k: Key) -> String {
        switch k {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "Ctrl-\(c)"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "⏎"
        case .escape: return "Esc"
        case .backspace: return "Backspace"
        case .tab: return "Tab"
        case .backTab: return "BackTab"
        case .delete: return "Delete"
        case .function(let n): return "F\(n)"
        }
    }
}
