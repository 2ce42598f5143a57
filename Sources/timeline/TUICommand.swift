import ArgumentParser
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

    @Option(help: "Long polls in flight at once per queue.")
    var concurrency = 2

    @Flag(help: "Never delete messages (for a queue shared by several viewers).")
    var peek = false

    @Flag(name: .customLong("no-poll"), help: "Do not poll SQS; view a database fed by `timeline poll` or `timeline import`.")
    var noPoll = false

    @Flag(name: .customLong("no-color"), help: "No colours (bold and reverse video remain).")
    var noColor = false

    func validate() throws {
        guard isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 else {
            throw ValidationError("timeline tui needs a terminal (stdin and stdout must be a TTY); try `timeline list`")
        }
    }

    func run() throws {
        // Open once read-write up front: creates/migrates the file (0600) and fails early with a clear message.
        let path = try store.openForWriting().path
        // The poller reports each commit to the controller, which exists only once the poller's status can
        // be read: the box connects them.
        let commits = CommitRelay()
        let poller = noPoll
            ? nil : TUIPollerHook.start(databasePath: path, options: queue, concurrency: concurrency, peek: peek,
                                        onCommit: { commits.controller?.checkForChangesNow() })
        defer { poller?.stop() }
        let state = AppState(width: 80, height: 24, nowMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
        var status: (@Sendable () -> PollerStatusView)?
        if let poller {
            status = { poller.status }
        }
        let makeReader: @Sendable () throws -> TimelineReading = { try TimelineStore(path: path) }
        let controller = TimelineController(state: state, makeReader: makeReader, pollerStatus: status)
        commits.controller = controller
        let env = ProcessInfo.processInfo.environment
        let color = !noColor && (env["NO_COLOR"] ?? "").isEmpty
        TerminalApp.run(controller: controller, color: color, databasePath: path)
    }
}

/// Hands the in-process poller's commit signal to the controller once it exists (thread-safe).
private final class CommitRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var target: TimelineController?
    var controller: TimelineController? {
        get { lock.withLock { target } }
        set { lock.withLock { target = newValue } }
    }
}
