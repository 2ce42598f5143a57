import Dispatch
import Foundation
import TimelineCore

/// The `--notify-command` channel: runs the command (argv, no shell, event text never in argv) with the
/// notification as JSON on its stdin. Also `notify-send` for a desktop session. Runs on a background
/// queue, one command at a time; failures are reported through `onFailure`.
public final class CommandChannel: @unchecked Sendable {
    private let argv: [String]
    private let queue = DispatchQueue(label: "timeline.notify.command")
    private let onFailure: @Sendable (String) -> Void
    private let timeout: Double

    /// How long one command may run before it is terminated.
    public static let timeoutSeconds: Double = 30

    public init(argv: [String], timeout: Double = timeoutSeconds, onFailure: @escaping @Sendable (String) -> Void) {
        self.argv = argv
        self.timeout = timeout
        self.onFailure = onFailure
        // A command that exits without reading all of stdin must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts the command for `notification` (returns at once).
    public func deliver(_ notification: Notification) {
        let input = Data((Self.json(notification) + "\n").utf8)
        let argv = argv
        queue.async { [onFailure, timeout] in
            do {
                let status = try Self.run(argv, stdin: input, timeout: timeout)
                if status != 0 { onFailure("notify command exited with status \(status)") }
            } catch {
                onFailure("notify command failed: \(error)")
            }
        }
    }

    /// Waits until every command started so far has finished (for exit and tests), at most `timeout`
    /// seconds; false when some are still running.
    @discardableResult
    public func waitUntilIdle(timeout: Double = 60) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// The document on stdin: kind, title, body and the events (as stored, raw JSON).
    public static func json(_ n: Notification) -> String {
        let events = n.transitions.map(\.event.rawJSON).joined(separator: ",")
        return "{\"type\":\"notification\",\"kind\":\(EventEncoder.quoted(n.kind.rawValue)),"
            + "\"title\":\(EventEncoder.quoted(n.title)),\"body\":\(EventEncoder.quoted(n.body)),"
            + "\"count\":\(n.transitions.count),\"events\":[\(events)]}"
    }

    /// Runs `argv` (found on $PATH unless it names a path) with `stdin`; returns its exit status. Stdin is
    /// written from another thread (a command that never reads it cannot block us); a command still
    /// running after `timeoutSeconds` is terminated.
    static func run(_ argv: [String], stdin: Data, timeout: Double = timeoutSeconds) throws -> Int32 {
        let process = Process()
        process.executableURL = try executable(argv[0])
        process.arguments = Array(argv.dropFirst())
        let pipe = Pipe()
        process.standardInput = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let writer = pipe.fileHandleForWriting
        DispatchQueue.global().async {
            // A broken pipe (the command exited without reading) is not our failure.
            try? writer.write(contentsOf: stdin)
            try? writer.close()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            // SIGKILL: a child may have inherited a blocked SIGTERM (our signal watchers block it).
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            throw CommandError(message: "\(argv[0]) still running after \(timeout) s: terminated")
        }
        return process.terminationStatus
    }

    /// `name` itself when it holds a `/`, else the first executable of that name on $PATH.
    public static func executable(_ name: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if name.contains("/") { return URL(fileURLWithPath: name) }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        throw CommandError(message: "\(name): command not found on PATH")
    }
}

/// A notify command could not run, or ran too long.
public struct CommandError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// `notify-send` for a desktop session ($DISPLAY or $WAYLAND_DISPLAY set and notify-send installed).
/// Title and body are sanitized and passed after `--`, so no text can become an option.
public final class DesktopChannel: @unchecked Sendable {
    private let executable: URL
    private let queue = DispatchQueue(label: "timeline.notify.desktop")

    /// nil when there is no desktop session or no `notify-send`.
    public init?(environment env: [String: String]) {
        guard !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty,
              let url = try? CommandChannel.executable("notify-send", environment: env) else { return nil }
        executable = url
    }

    public func deliver(_ n: Notification) {
        let args = ["--app-name=timeline", "--",
                    InBandNotification.sanitizedField(n.title, limit: InBandNotification.titleLimit),
                    InBandNotification.sanitizedField(n.body, limit: InBandNotification.bodyLimit)]
        let url = executable
        queue.async {
            _ = try? CommandChannel.run([url.path] + args, stdin: Data())
        }
    }

    /// Waits until every notification started so far is shown (for tests).
    public func waitUntilIdle() { queue.sync {} }
}
