import Foundation

/// Restores the terminal on SIGTERM/SIGINT/SIGHUP (via a flag the main loop checks) and on crash
/// signals (restore, then re-raise with the default action so the crash still reports).
enum TerminalRestore {
    nonisolated(unsafe) private static var restore: (() -> Void)?
    nonisolated(unsafe) static var terminationSignal: Int32 = 0

    static func register(_ action: @escaping () -> Void) {
        restore = action
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig) { s in TerminalRestore.terminationSignal = s }
        }
        for sig in [SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP] {
            signal(sig) { s in
                TerminalRestore.restore?()
                signal(s, SIG_DFL)
                raise(s)
            }
        }
    }

    /// After a normal exit, re-deliver a termination signal with its default action (exit status 128+n).
    static func reraiseIfSignalled() {
        let s = terminationSignal
        guard s != 0 else { return }
        signal(s, SIG_DFL)
        raise(s)
    }
}
