import Foundation

/// A non-blocking pipe that any thread signals so the terminal loop's `poll(2)` returns: results from
/// the runtime's lanes and commits by the in-process poller wake the loop at once instead of at its
/// next timeout. Signals coalesce (a full pipe already means "wake up").
final class WakePipe: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    /// Nil when the process has no file descriptors left (the loop then falls back to its timeouts).
    init?() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    /// Wakes the loop (async-signal-safe; never blocks).
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Empties the pipe; call before looking at what the signals were about.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }

    deinit {
        close(readFD)
        close(writeFD)
    }
}
