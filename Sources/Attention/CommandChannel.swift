import Dispatch
import Foundation
import ProcessLaunch
import Synchronization
import TimelineCore

/// The `--notify-command` channel: runs the command (argv, no shell, event text never in argv) with the
/// notification as JSON on its stdin. Also `notify-send` for a desktop session. Runs on a background
/// queue, one command at a time; failures are reported through `onFailure`.
///
/// Bounded whatever the traffic: at most one notification waits behind the running command (a newer one
/// replaces it, and the next document counts what was replaced in `dropped`), and a document carries at
/// most `eventsPerDocument` events with bodies cut to `bodyCharacters`.
public final class CommandChannel: Sendable {
    private let argv: [String]
    private let queue = DispatchQueue(label: "timeline.notify.command")
    private let onFailure: @Sendable (String) -> Void
    private let timeout: Double
    private let waiting = Mutex(Waiting())

    /// The notification waiting for the command, and how many were replaced since the last document.
    private struct Waiting {
        var next: Notification?
        var dropped = 0
    }

    /// How long one command may run before it is terminated.
    public static let timeoutSeconds: Double = 30
    /// Most events one document carries (`count` still says how many there were).
    public static let eventsPerDocument = 20
    /// Most characters of an event's body in a document (the rest is cut, `body_truncated` says so).
    public static let bodyCharacters = 2_000
    /// An event whose stored JSON is at most this long is passed as stored; a longer one is re-encoded.
    static let rawJSONBytes = 8_192

    public init(argv: [String], timeout: Double = timeoutSeconds, onFailure: @escaping @Sendable (String) -> Void) {
        self.argv = argv
        self.timeout = timeout
        self.onFailure = onFailure
        // A command that exits without reading all of stdin must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Starts the command for `notification` (returns at once). While a command runs, only the newest
    /// notification waits for the next one.
    public func deliver(_ notification: Notification) {
        let alreadyWaiting = waiting.withLock { w -> Bool in
            let replaced = w.next != nil
            if replaced { w.dropped += 1 }
            w.next = notification
            return replaced
        }
        if alreadyWaiting { return }
        let argv = argv
        queue.async { [self, onFailure, timeout] in
            guard let (next, dropped) = waiting.withLock({ w -> (Notification, Int)? in
                guard let next = w.next else { return nil }
                defer { w.next = nil; w.dropped = 0 }
                return (next, w.dropped)
            }) else { return }
            let input = Data((Self.json(next, dropped: dropped) + "\n").utf8)
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

    /// The document on stdin: kind, title, body, how many events and how many notifications were dropped,
    /// and the first `eventsPerDocument` events (as stored, raw JSON, when short; else re-encoded with the
    /// body cut).
    public static func json(_ n: Notification, dropped: Int = 0) -> String {
        let events = n.transitions.prefix(eventsPerDocument).map { boundedJSON($0.event) }.joined(separator: ",")
        return "{\"type\":\"notification\",\"kind\":\(EventEncoder.quoted(n.kind.rawValue)),"
            + "\"title\":\(EventEncoder.quoted(n.title)),\"body\":\(EventEncoder.quoted(String(n.body.prefix(bodyCharacters)))),"
            + "\"count\":\(n.transitions.count),\"dropped\":\(dropped),\"events\":[\(events)]}"
    }

    /// The event's stored JSON when it is short; else its fields with the body cut and `body_truncated`.
    static func boundedJSON(_ e: Event) -> String {
        if e.rawJSON.utf8.count <= rawJSONBytes { return e.rawJSON }
        let cut = e.body.count > bodyCharacters
        var json = EventEncoder.json(id: e.id, agentID: e.agentID, taskID: e.taskID, title: e.title,
                                     status: e.status.rawValue, timestamp: TimeFormat.iso8601(micros: e.timestampMicros),
                                     body: cut ? String(e.body.prefix(bodyCharacters)) : e.body, category: e.category,
                                     progress: e.progress)
        if cut {
            json.removeLast()
            json += ",\"body_truncated\":true}"
        }
        return json
    }

    /// Runs `argv` (found on $PATH unless it names a path; see `ProcessLaunch`) with `stdin`; returns its
    /// exit status. Stdin is written from another thread (a command that never reads it cannot block us);
    /// a command still running after `timeout` seconds gets SIGTERM, and SIGKILL a second later, its whole
    /// process group.
    static func run(_ argv: [String], stdin: Data, timeout: Double = timeoutSeconds,
                    environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int32 {
        let executable = try executable(argv[0], environment: environment)
        guard let pipe = ProcessLaunch.pipe() else {
            throw CommandError(message: "\(argv[0]): pipe: \(String(cString: strerror(errno)))")
        }
        let plan = ProcessLaunch.Plan(executable: executable.path, arguments: argv, environment: environment,
                                      stdin: .descriptor(pipe.read), stdout: .devNull, stderr: .devNull)
        var pid = pid_t(0)
        let spawned = plan.spawn(&pid)
        close(pipe.read)
        guard spawned == 0 else {
            close(pipe.write)
            throw CommandError(message: "\(argv[0]): \(String(cString: strerror(spawned)))")
        }
        let writer = FileHandle(fileDescriptor: pipe.write, closeOnDealloc: true)
        DispatchQueue.global().async {
            // A broken pipe (the command exited without reading) is not our failure.
            try? writer.write(contentsOf: stdin)
            try? writer.close()
        }
        if let status = ProcessLaunch.waitForExit(pid, timeout: timeout) { return status }
        kill(-pid, SIGTERM)
        if ProcessLaunch.waitForExit(pid, timeout: 1) == nil {
            kill(-pid, SIGKILL)
            _ = ProcessLaunch.waitForExit(pid, timeout: .infinity)
        }
        throw CommandError(message: "\(argv[0]) still running after \(timeout) s: terminated")
    }

    /// `name` itself when it holds a `/`, else the first executable of that name on $PATH.
    public static func executable(_ name: String,
                                  environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        guard let path = ProcessLaunch.executable(name, path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw CommandError(message: name.contains("/") ? "\(name): not an executable file"
                                                           : "\(name): command not found on PATH")
        }
        return URL(fileURLWithPath: path)
    }
}

/// A notify command could not run, or ran too long.
public struct CommandError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// `notify-send` for a desktop session ($DISPLAY or $WAYLAND_DISPLAY set and notify-send installed).
/// Title and body are sanitized and passed after `--`, so no text can become an option.
public final class DesktopChannel: Sendable {
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
                    NotificationField.text(n.title, limit: NotificationField.titleLimit),
                    Self.markupEscaped(NotificationField.text(n.body, limit: NotificationField.bodyLimit))]
        let url = executable
        queue.async {
            _ = try? CommandChannel.run([url.path] + args, stdin: Data())
        }
    }

    /// Notification servers read the body as markup (`<a href>`, `<img>`): event text is shown as text.
    static func markupEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Waits until every notification started so far is shown (for tests).
    public func waitUntilIdle() { queue.sync {} }
}
