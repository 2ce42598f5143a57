import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with posix_spawn and reaped with waitpid on its own pid.
///
/// Foundation's `Process.waitUntilExit` can hang forever in a test process whose children may be reaped
/// by someone else (Swift Testing's exit-test monitor waits on any child): here a child that was reaped
/// elsewhere simply counts as exited.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    private let exited = Mutex(false)

    /// Starts `arguments[0]` (looked up in PATH) with stdout and stderr sent to /dev/null (or `logPath`).
    public init(_ arguments: [String], environment: [String: String]? = nil, logPath: String = "/dev/null") throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The spawning thread may block signals (Dispatch and test runners do); a child inherits that mask,
        // and would then ignore SIGTERM. Start it with an empty mask and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            throw TestSetupError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit { terminate() }

    /// True until the child has exited (or was reaped elsewhere).
    public var isRunning: Bool {
        exited.withLock { exited in
            if exited { return false }
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r == -1 && errno == ECHILD) { exited = true }
            return !exited
        }
    }

    /// Sends `signal`, waits up to `timeout` seconds for the exit, then SIGKILLs and reaps.
    public func terminate(signal: Int32 = SIGTERM, timeout: TimeInterval = 5) {
        guard isRunning else { return }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning && Date() < deadline { usleep(10_000) }
        if isRunning {
            kill(pid, SIGKILL)
            while isRunning { usleep(10_000) }
        }
    }
}
