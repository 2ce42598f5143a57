import ArgumentParser
import Attention
import Foundation
import Ingest
import ReplyDelivery
import SQSClient
import Synchronization
import Terminal
import TimelineConfig
import TimelineCore
import TimelineRuntime
import TimelineStore
import TimelineUI

/// `timeline tui`: the live terminal timeline.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Show the live, searchable timeline in the terminal.",
        discussion: """
            Polls the queue in the background (unless --no-poll) and draws the timeline from the local \
            database. Press ? inside for every key. NO_COLOR or --no-color turns colours off.
            """
    )

    @OptionGroup var queue: QueueOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var notifyOptions: NotifyOptions

    @Option(name: .customLong("notify-terminal"), help: """
        Sequence the terminal gets per notification (then one BEL): auto, osc9, osc777, osc99, bell, none.
        """)
    var notifyTerminal: NotifyTerminal = .auto

    @Flag(name: .customLong("no-title"), help: "Do not show the fleet state in the terminal title.")
    var noTitle = false

    @Option(name: .customLong("stale-after"), help: "A running task with no update for this long is stale (90s, 10m, 2h; default: $TIMELINE_STALE_AFTER, else `stale_after` in the config file, else 10m).")
    var staleAfter: DurationArgument?

    @Option(name: .customLong("timeout-after"), help: "A task running this long since its first event is shown as timed out (default: $TIMELINE_TIMEOUT_AFTER, else `timeout_after` in the config file, else 8h).")
    var timeoutAfter: DurationArgument?

    /// A threshold: the flag > the environment > the config file > `fallback` seconds.
    static func threshold(_ key: String, flag: DurationArgument?, flagName: String, environment: String,
                          fallback: Int64) throws -> Int64 {
        let setting = try UserConfig.resolver().resolve(
            key, flag: flag.map(\.defaultValueDescription), flagName: flagName, environmentNames: [environment])
        guard let text = setting.value else { return fallback }
        guard let seconds = DurationText.seconds(text), seconds > 0 else {
            throw CommandFailure("\(key) from \(setting.source) is not a duration such as 10m: \(text)",
                                 exitCode: ExitStatus.unusable)
        }
        return seconds
    }

    @OptionGroup var polling: PollingOptions<ViewerPolling>

    @Flag(name: .customLong("no-poll"), help: "Do not poll SQS; view a database fed by `timeline poll` or `timeline import`.")
    var noPoll = false

    @Flag(name: .customLong("no-color"), help: "No colours (bold and reverse video remain).")
    var noColor = false

    @Option(help: ArgumentHelp("Who answers agents (default: user@host).", valueName: "name"))
    var from: String?

    @OptionGroup var theme: ThemeOption

    @Option(help: ArgumentHelp("Times as relative ages or absolute clock times: relative or absolute (t toggles; default: $TIMELINE_TIME, else `time` in the config file, else relative).", valueName: "display"))
    var time: TimeDisplay?
    @OptionGroup var retention: RetentionOption

    func validate() throws {
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
            throw ValidationError("timeline tui needs a terminal (stdin and stdout must be a TTY); try `timeline list`")
        }
    }

    func run() throws {
        if let problem = TerminalSupport.problem(term: ProcessInfo.processInfo.environment["TERM"]) {
            throw CommandFailure(problem, exitCode: ExitStatus.unusable)
        }
        // Open once read-write up front: creates/migrates the file (0600) and fails early with a clear message.
        let path = try store.openForWriting().path
        // Before the poller starts: everything it stores from now on is watched (the backlog included).
        let monitor = try AttentionMonitor(databasePath: path, policy: notifyOptions.policy,
                                           startedMicros: NotifyOptions.nowMicros)
        let prepared = noPoll ? nil : Self.credentialsNeedingATerminal(queue)
        TerminalMFAPrompt.block("the TUI owns the terminal; quit and start `timeline tui` again to enter it")
        // The poller reports each commit to the controller, which exists only once the poller's status can
        // be read: the box connects them.
        let commits = CommitRelay()
        let poller = noPoll ? nil : PollerSupervisor(
            resolve: { [queue] first in try TUIPollerStatus.resolve(queue, prepared: first ? prepared : nil) },
            configuration: polling.pollerConfiguration(queueURLs: []), databasePath: path,
            onCommit: { commits.controller?.storeWritten() })
        poller?.start()
        defer {
            HelperRegistry.shared.terminateAll()  // a credential helper must not hold up quitting
            poller?.stop()
        }
        // Retention in the TUI logs nothing (stderr would draw over the screen).
        let retentionTimer = RetentionTimer.start(databasePath: path, keepSeconds: try retention.seconds(), log: nil)
        defer { retentionTimer?.stop() }
        var state = AppState(width: 80, height: 24, nowMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
        state.runThresholds = RunThresholds(
            staleSeconds: try Self.threshold("stale_after", flag: staleAfter, flagName: "--stale-after",
                                             environment: "TIMELINE_STALE_AFTER", fallback: RunThresholds().staleSeconds),
            maxLifetimeSeconds: try Self.threshold("timeout_after", flag: timeoutAfter, flagName: "--timeout-after",
                                                   environment: "TIMELINE_TIMEOUT_AFTER", fallback: RunThresholds().maxLifetimeSeconds))
        state.absoluteTime = try Self.timeSetting(flag: time?.rawValue).value == TimeDisplay.absolute.rawValue
        state.mouse = try Self.mouseSetting()
        if !TerminalSupport.localeIsUTF8() {
            state.asciiOnly = true
            state.showNotice("locale is not UTF-8: ASCII glyphs (set LANG=C.UTF-8 for more)", seconds: 10)
        }
        state.answering.sender = try ReplyIdentity.identity(flag: from)
        var status: (@Sendable () -> PollerStatusView)?
        var restart: (@Sendable () -> Void)?
        if let poller {
            status = { poller.status.view() }
            restart = { poller.restart() }
        }
        try restoreMarksAndViews(&state, databasePath: path)
        let actions = try TUIActions(databasePath: path, configPath: try UserConfig.file().path)
        let makeReader: @Sendable () throws -> TimelineReading = { try TimelineStore.viewer(path: path) }
        // Replies go out with the viewer's credentials, configured like the poller's (region, endpoint, profile),
        // only to the queues the reply policy allows; the confirmation flags another account or host.
        let environment = ProcessInfo.processInfo.environment
        let ownQueues = Self.ownQueueURLs(queue)
        let replyPolicy = try ReplyTargets.policy(region: queue.region, endpointURL: queue.endpointURL,
                                                  profile: queue.profile, ownQueueURL: ownQueues.first,
                                                  environment: environment)
        state.answering.replyPolicy = replyPolicy
        state.answering.ownQueues = ownQueues
        let outbox = ReplyOutbox(keeper: try TimelineStore(path: path), sender: try ReplyTargets.sender(
            policy: replyPolicy, region: queue.region, endpointURL: queue.endpointURL, profile: queue.profile,
            environment: environment))
        let controller = TimelineController(state: state, makeReader: makeReader, pollerStatus: status,
                                            pollerRestart: restart, actions: actions,
                                            sendReply: { outbox.send($0) })
        commits.controller = controller
        let env = ProcessInfo.processInfo.environment
        let color = !noColor && (env["NO_COLOR"] ?? "").isEmpty
        let sequence = notifyOptions.notify == .off ? .none : notifyTerminal.sequence ?? .detect(env)
        let attention = TUIAttention(relay: AttentionRelay(
            monitor: monitor,
            terminal: .init(setsTitle: !noTitle),
            notifyCommand: notifyOptions.commandWords, desktop: DesktopChannel(environment: env)))
        TerminalApp.run(controller: controller, color: color, light: try theme.chosen() == .light,
                        databasePath: path, sideChannel: attention,
                        notices: NoticeBytes(sequence: sequence, tmux: !(env["TMUX"] ?? "").isEmpty))
    }

    /// How times are shown (`--time`).
    enum TimeDisplay: String, ExpressibleByArgument, CaseIterable { case relative, absolute }

    /// The sequence a notification writes to the terminal (`--notify-terminal`); `auto` detects it.
    enum NotifyTerminal: String, ExpressibleByArgument, CaseIterable {
        case auto, osc9, osc777, osc99, bell, none
        var sequence: NotificationSequence? { NotificationSequence(rawValue: rawValue) }
    }

    /// The `time` setting: flag > TIMELINE_TIME > config file > relative.
    static func timeSetting(flag: String?) throws -> Setting {
        try UserConfig.resolver().resolve("time", flag: flag, flagName: "--time", environmentNames: ["TIMELINE_TIME"],
                                          fallback: "relative")
    }

    /// Does the view take the mouse: TIMELINE_MOUSE (1/0, true/false) > `mouse` in the config file > yes.
    static func mouseSetting() throws -> Bool {
        let setting = try UserConfig.resolver().resolve("mouse", flag: nil, flagName: "", environmentNames: ["TIMELINE_MOUSE"])
        guard let value = setting.value else { return true }
        return value == "true" || value == "1"
    }

    /// Marks from the database, views from the config file, and the last view used (applied again).
    private func restoreMarksAndViews(_ state: inout AppState, databasePath: String) throws {
        let store = try TimelineStore(path: databasePath)
        state.marks = Set(try store.markedTaskIDs())
        state.search.history = try TUIActions.searchHistory(store)
        state.pins = try TUIActions.pins(store)
        state.views = try UserConfig.file().views.map { NamedQuery(name: $0.name, query: $0.query) }
        if let name = try store.setting(TUIActions.lastViewKey), let view = state.views.first(where: { $0.name == name }) {
            _ = applyView(&state, view)  // the first loads (controller.start) use the view's query
        }
    }

    /// The viewer's own queue URLs (flags, environment, config file); empty when none is named by URL.
    static func ownQueueURLs(_ options: QueueOptions) -> [String] {
        guard let configuration = try? options.configuration(), case .url(let first) = configuration.queue.value else { return [] }
        return [first] + ((try? options.extraQueueURLs(after: configuration)) ?? [])
    }

    /// A profile with `mfa_serial` asks for its code on the terminal: do that before the screen is drawn
    /// and hand the resolved settings (credentials cached) to the poller. Nil otherwise (nothing waits).
    static func credentialsNeedingATerminal(_ options: QueueOptions) -> SQSConfiguration? {
        guard let configuration = try? options.configuration(), configuration.credentials.asksForMFACode else { return nil }
        _ = try? configuration.credentials.credentials()  // a failure shows in the status bar via the poller
        return configuration
    }
}

/// Hands the in-process poller's commit signal to the controller once it exists (thread-safe).
private final class CommitRelay: Sendable {
    private let target = Mutex<TimelineController?>(nil)
    var controller: TimelineController? {
        get { target.withLock { $0 } }
        set { target.withLock { $0 = newValue } }
    }
}
