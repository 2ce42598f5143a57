import CProcessSpawn
import Foundation
import ProcessLaunch
import Synchronization

/// Runs a credential helper without a shell: its own process group (killed whole on timeout, on
/// cancellation, when timeline exits while it runs, and when something it started still holds its
/// output open after it exited), no inherited descriptors besides stdin (/dev/null), stdout and
/// stderr, default signal dispositions, and output capped. A helper that finishes normally may leave
/// a background process (a credential cache agent) running.
enum HelperProcess {
    struct Output {
        var status: Int32
        var stdout: Data
        /// The first `stderrCap` bytes of stderr, raw (sanitize before showing).
        var stderr: Data
    }

    enum Failure: Error {
        case cannotStart(String)
        case timedOut
        case outputTooLarge
        case interrupted
    }

    static let stdoutCap = 64 * 1024
    static let stderrCap = 8 * 1024
    /// After the helper exits, how long a grandchild may keep its pipes open before the group is killed.
    static let lingerAfterExit: TimeInterval = 0.5

    /// Runs `arguments[0]` (looked up in PATH when it has no slash) with `arguments` and `environment`.
    static func run(_ arguments: [String], environment: [String: String], timeout: TimeInterval) throws(Failure) -> Output {
        guard let name = arguments.first else { throw .cannotStart("empty command") }
        guard let executable = ProcessLaunch.executable(name, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            throw .cannotStart("\(name): command not found (or not executable)")
        }
        guard !HelperRegistry.shared.isShuttingDown else { throw .interrupted }

        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard tl_pipe_cloexec(&outPipe) == 0 else { throw .cannotStart("pipe: \(String(cString: strerror(errno)))") }
        guard tl_pipe_cloexec(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw .cannotStart("pipe: \(String(cString: strerror(errno)))")
        }
        let plan = ProcessLaunch.Plan(executable: executable, arguments: arguments, environment: environment,
                                      stdin: .devNull, stdout: .descriptor(outPipe[1]), stderr: .descriptor(errPipe[1]))
        var (spawned, pid) = (Int32(0), pid_t(0))
        // ETXTBSY: another thread's fork still holds a write descriptor of a just-written script; it goes at that exec.
        for attempt in 0..<20 {
            (spawned, pid) = HelperRegistry.shared.spawn { pid in plan.spawn(&pid) }
            guard spawned == ETXTBSY, attempt < 19 else { break }
            usleep(25_000)
        }
        close(outPipe[1]); close(errPipe[1])
        defer { close(outPipe[0]); close(errPipe[0]) }
        if spawned == ECANCELED { throw .interrupted }
        guard spawned == 0 else { throw .cannotStart("\(executable): \(String(cString: strerror(spawned)))") }
        defer { HelperRegistry.shared.finished(pid) }
        return try collect(pid: pid, stdout: outPipe[0], stderr: errPipe[0], timeout: timeout)
    }

    /// Reads both pipes until they close, the deadline passes, the output overflows or shutdown starts.
    private static func collect(pid: pid_t, stdout: Int32, stderr: Int32, timeout: TimeInterval) throws(Failure) -> Output {
        let deadline = Date().addingTimeInterval(timeout)
        var out = Data(), err = Data()
        var open = [stdout: true, stderr: true]
        var exitStatus: Int32?
        var exitedAt: Date?
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func stop(_ failure: Failure?) throws(Failure) {
            kill(-pid, SIGKILL)
            if exitStatus == nil { var status: Int32 = 0; waitpid(pid, &status, 0) }
            if let failure { throw failure }
        }
        while open.values.contains(true) {
            if HelperRegistry.shared.isShuttingDown { try stop(.interrupted) }
            if Date() >= deadline { try stop(.timedOut) }
            if exitStatus == nil {
                var status: Int32 = 0
                if reaped(pid, &status) { exitStatus = status; exitedAt = Date() }
            }
            if let exitedAt, Date().timeIntervalSince(exitedAt) > lingerAfterExit {
                try stop(nil)  // a grandchild holds the pipes: the helper is done, its group goes
                break
            }
            var fds = open.filter(\.value).map { pollfd(fd: $0.key, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), 100)
            if ready < 0 && errno != EINTR { try stop(.cannotStart("poll: \(String(cString: strerror(errno)))")) }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count <= 0 {
                    if count == 0 || (errno != EINTR && errno != EAGAIN) { open[entry.fd] = false }
                    continue
                }
                if entry.fd == stdout {
                    out.append(contentsOf: buffer[0..<count])
                    if out.count > stdoutCap { try stop(.outputTooLarge) }
                } else if err.count < stderrCap {
                    err.append(contentsOf: buffer[0..<min(count, stderrCap - err.count)])
                }
            }
        }
        if exitStatus == nil {
            // Pipes closed; give the helper until the deadline to exit.
            while exitStatus == nil {
                var status: Int32 = 0
                if reaped(pid, &status) { exitStatus = status; break }
                if HelperRegistry.shared.isShuttingDown { try stop(.interrupted) }
                if Date() >= deadline { try stop(.timedOut) }
                usleep(20_000)
            }
        }
        return Output(status: ProcessLaunch.exitCode(exitStatus!), stdout: out, stderr: err)
    }

    /// Whether `pid` has exited (its status in `status`). Someone else reaping it (ECHILD) counts as a
    /// clean exit: the output is still checked.
    private static func reaped(_ pid: pid_t, _ status: inout Int32) -> Bool {
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return true }
        if result < 0 && errno == ECHILD { status = 0; return true }
        return false
    }
}

/// Every running helper's process group, so shutdown (a signal, `q`, exit) can kill them all at once,
/// and the token that aborts credential requests in flight (STS, SSO, container, IMDS) at that moment.
public final class HelperRegistry: Sendable {
    public static let shared = HelperRegistry()
    /// Cancelled by `terminateAll`: credential requests pass it to the transport.
    public let shutdown = CancellationToken()
    private struct Running {
        var groups: Set<pid_t> = []
        var shuttingDown = false
    }
    private let running = Mutex(Running())

    private init() {
        atexit { HelperRegistry.shared.terminateAll() }
        HelperSignalFallback.install()
    }

    var isShuttingDown: Bool { running.withLock { $0.shuttingDown } }

    /// Kills every running helper's process group and refuses new ones: call when the program is ending.
    /// Threads waiting for a helper return at once with an "interrupted" error. Safe from any thread.
    public func terminateAll() {
        let groups = running.withLock { running -> Set<pid_t> in
            running.shuttingDown = true
            return running.groups
        }
        for group in groups { kill(-group, SIGKILL) }
        shutdown.cancel()
    }

    /// Spawns and records the group under the lock, so `terminateAll` cannot miss a helper just starting.
    func spawn(_ body: (inout pid_t) -> Int32) -> (Int32, pid_t) {
        running.withLock { running in
            if running.shuttingDown { return (ECANCELED, 0) }
            var pid: pid_t = 0
            let result = body(&pid)
            if result == 0 {
                running.groups.insert(pid)
                HelperSignalFallback.record(pid)
            }
            return (result, pid)
        }
    }

    func finished(_ pid: pid_t) {
        running.withLock { running in
            running.groups.remove(pid)
            HelperSignalFallback.forget(pid)
        }
    }
}

/// For commands that let SIGINT/SIGTERM/SIGHUP kill them (no handler of their own): a handler that
/// kills the helpers' process groups first, then dies of the signal as before. Signals a command
/// handles itself (SIG_IGN plus a dispatch source, the TUI's flag) are left alone. The handler only
/// reads a fixed table and calls kill/signal/raise (async-signal-safe).
enum HelperSignalFallback {
    static let slots = 64
    nonisolated(unsafe) static let groups: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: slots)
        table.initialize(repeating: 0, count: slots)
        return table
    }()

    static func install() {
        _ = groups
        for number in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(number) { received in
                for index in 0..<HelperSignalFallback.slots where HelperSignalFallback.groups[index] > 0 {
                    kill(-HelperSignalFallback.groups[index], SIGKILL)
                }
                signal(received, SIG_DFL)
                raise(received)
            }
            if previous != nil { signal(number, previous) }  // not SIG_DFL (nil): someone handles it already
        }
    }

    /// Called under the registry's lock.
    static func record(_ group: pid_t) {
        if let free = (0..<slots).first(where: { groups[$0] == 0 }) { groups[free] = group }
    }

    /// Called under the registry's lock.
    static func forget(_ group: pid_t) {
        for index in 0..<slots where groups[index] == group { groups[index] = 0 }
    }
}
