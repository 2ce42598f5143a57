import CProcessSpawn
import Foundation

/// How timeline starts another program (credential helpers, notify commands), one way for every caller:
/// no shell; the program found on PATH unless it names a path; its own process group (killed whole);
/// default signal dispositions and an empty signal mask, so it never inherits the SIGTERM that a signal
/// watcher ignores or blocks; no descriptors besides its stdin, stdout and stderr.
public enum ProcessLaunch {
    /// Where a child's standard stream comes from or goes to.
    public enum Stream {
        case devNull
        /// A descriptor of the caller's (its close-on-exec flag does not matter: it is duplicated).
        case descriptor(Int32)
    }

    /// `name` itself when it contains a slash (and is executable), else the first executable regular
    /// file of that name in the `:`-separated `path`; nil when there is none.
    public static func executable(_ name: String, path: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// A pipe whose both ends are close-on-exec from birth; nil (errno set) when none can be made.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard tl_pipe_cloexec(&fds) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    /// Everything `posix_spawn` needs, prepared once; `spawn` may be called (and retried) from a wrapper.
    /// `newSession`: the child leads a session of its own, with no controlling terminal (it outlives its
    /// parent and whatever signals the parent's group gets). `workingDirectory`: where the child starts
    /// (nil: the caller's).
    public final class Plan {
        private var actions = posix_spawn_file_actions_t()
        private var attributes = posix_spawnattr_t()
        private let executable: String
        private let argv: [UnsafeMutablePointer<CChar>?]
        private let envp: [UnsafeMutablePointer<CChar>?]

        public init(executable: String, arguments: [String], environment: [String: String],
                    stdin: Stream, stdout: Stream, stderr: Stream, newSession: Bool = false,
                    workingDirectory: String? = nil) {
            self.executable = executable
            argv = arguments.map { strdup($0) } + [nil]
            envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            posix_spawn_file_actions_init(&actions)
            for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
                switch stream {
                case .devNull:
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                case .descriptor(let fd):
                    posix_spawn_file_actions_adddup2(&actions, fd, target)
                }
            }
            tl_spawn_addclosefrom(&actions, 3)
            if let workingDirectory { tl_spawn_addchdir(&actions, workingDirectory) }
            posix_spawnattr_init(&attributes)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
            var empty = sigset_t()
            sigemptyset(&empty)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setsigmask(&attributes, &empty)
            posix_spawnattr_setpgroup(&attributes, 0)
            // A new session is also a new process group, led by the child.
            let group = newSession ? Int32(tl_spawn_setsid_flag()) : POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setflags(&attributes, Int16(group | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        }

        deinit {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
            (argv + envp).forEach { free($0) }
        }

        /// Starts the program; 0 and its pid (also its process group), or the error number.
        public func spawn(_ pid: inout pid_t) -> Int32 {
            posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        }
    }

    /// Waits for `pid` to exit, at most `timeout` seconds; its exit code (128 + signal when killed by
    /// one), or nil when it is still running.
    public static func waitForExit(_ pid: pid_t, timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return exitCode(status) }
            if result < 0 && errno != EINTR { return 0 }  // reaped elsewhere
            if Date() >= deadline { return nil }
            usleep(10_000)
        }
    }

    /// A `waitpid` status as an exit code: the program's own, or 128 + the signal that ended it.
    public static func exitCode(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
