import ArgumentParser
import Attention
import Foundation
import Terminal
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
    var notifyTerminal: String = "auto"

    @Flag(name: .customLong("no-title"), help: "Do not show the fleet state in the terminal title.")
    var noTitle = false

    @Option(name: .customLong("stale-after"), help: "A running task with no update for this long is stale (90s, 10m, 2h).")
    var staleAfter = DurationArgument(seconds: RunThresholds().staleSeconds)

    @Option(name: .customLong("timeout-after"), help: "A task running this long since its first event is shown as timed out.")
    var timeoutAfter = DurationArgument(seconds: RunThresholds().maxLifetimeSeconds)

    @Option(help: "Long polls in flight at once per queue.")
    var concurrency = 2

    @Flag(help: "Never delete messages (for a queue shared by several viewers).")
    var peek = false

    @Flag(name: .customLong("no-poll"), help: "Do not poll SQS; view a database fed by `timeline poll` or `timeline import`.")
    var noPoll = false

    @Flag(name: .customLong("no-color"), help: "No colours (bold and reverse video remain).")
    var noColor = false

    func validate() throws {
        guard notifyTerminal == "auto" || InBandNotification.Sequence(rawValue: notifyTerminal) != nil else {
            throw ValidationError("--notify-terminal must be auto, osc9, osc777, osc99, bell or none")
        }
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
            throw ValidationError("timeline tui needs a terminal (stdin and stdout must be a TTY); try `timeline list`")
        }
    }

    func run() throws {
        // Open once read-write up front: creates/migrates the file (0600) and fails early with a clear message.
        let path = try store.openForWriting().path
        // Before the poller starts: everything it stores from now on is watched (the backlog included).
        let monitor = try AttentionMonitor(databasePath: path, policy: notifyOptions.policy,
                                           startedMicros: NotifyOptions.nowMicros)
        let poller = noPoll
            ? nil : TUIPollerHook.start(databasePath: path, options: queue, concurrency: concurrency, peek: peek)
        defer { poller?.stop() }
        var state = AppState(width: 80, height: 24, nowMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
        state.runThresholds = RunThresholds(staleSeconds: staleAfter.seconds, maxLifetimeSeconds: timeoutAfter.seconds)
        var status: (@Sendable () -> PollerStatusView)?
        if let poller {
            status = { poller.status }
        }
        let makeReader: @Sendable () throws -> TimelineReading = { try TimelineStore(path: path) }
        let controller = TimelineController(state: state, makeReader: makeReader, pollerStatus: status)
        let env = ProcessInfo.processInfo.environment
        let color = !noColor && (env["NO_COLOR"] ?? "").isEmpty
        let sequence = notifyOptions.notify == .off ? .none
            : InBandNotification.Sequence(rawValue: notifyTerminal) ?? .detect(env)
        let failures = NotifyFailures()
        let attention = TUIAttention(monitor: monitor, sequence: sequence,
                                     command: notifyOptions.commandChannel(onFailure: failures.put),
                                     failures: failures, environment: env, setsTitle: !noTitle)
        TerminalApp.run(controller: controller, color: color, sideChannel: attention)
    }
}
