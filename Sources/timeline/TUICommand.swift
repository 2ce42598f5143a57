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
        if let problem = TerminalSupport.problem(term: ProcessInfo.processInfo.environment["TERM"]) {
            FileHandle.standardError.write(Data((problem + "\n").utf8))
            throw ExitCode(2)
        }
    }

    func run() throws {
        // Open once read-write up front: creates/migrates the file (0600) and fails early with a clear message.
        let path = try store.openForWriting().path
        let poller = noPoll
            ? nil : TUIPollerHook.start(databasePath: path, options: queue, concurrency: concurrency, peek: peek)
        defer { poller?.stop() }
        var state = AppState(width: 80, height: 24, nowMicros: Int64(Date().timeIntervalSince1970 * 1_000_000))
        if !TerminalSupport.localeIsUTF8() {
            state.asciiOnly = true
            state.showNotice("locale is not UTF-8: ASCII glyphs (set LANG=C.UTF-8 for more)", seconds: 10)
        }
        var status: (@Sendable () -> PollerStatusView)?
        var restart: (@Sendable () -> Void)?
        if let poller {
            status = { poller.status }
            restart = { poller.restart() }
        }
        let makeReader: @Sendable () throws -> TimelineReading = { try TimelineStore(path: path) }
        let controller = TimelineController(state: state, makeReader: makeReader, pollerStatus: status,
                                            pollerRestart: restart)
        let env = ProcessInfo.processInfo.environment
        let color = !noColor && (env["NO_COLOR"] ?? "").isEmpty
        TerminalApp.run(controller: controller, color: color)
    }
}
