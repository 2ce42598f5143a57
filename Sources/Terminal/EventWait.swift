import Foundation

/// What the terminal loop sleeps on: `poll(2)` over the terminal, the wake-up pipe and the store
/// watcher, with a timeout only when something on screen is due to change. No busy polling.
final class EventWait {
    /// What woke the loop (several may be true at once).
    struct Woken {
        var terminal = false
        var wakePipe = false
        var store = false
        /// A signal (SIGWINCH, SIGTERM…) interrupted the wait.
        var interrupted = false
    }

    let wakePipe: WakePipe?
    let storeWatcher: StoreWatcher?

    init(wakePipe: WakePipe?, storeWatcher: StoreWatcher?) {
        self.wakePipe = wakePipe
        self.storeWatcher = storeWatcher
    }

    /// Sleeps until input, a wake-up, a store write or a signal, or `timeoutMicros` (nil: no timeout).
    /// `watchStore` false: store writes do not wake it (they stay queued in the watcher until drained).
    func wait(timeoutMicros: Int64?, watchStore: Bool = true) -> Woken {
        var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        if let wakePipe { fds.append(pollfd(fd: wakePipe.readFD, events: Int16(POLLIN), revents: 0)) }
        let storeWatcher = watchStore ? self.storeWatcher : nil
        if let storeWatcher { fds.append(pollfd(fd: storeWatcher.fd, events: Int16(POLLIN), revents: 0)) }
        // Round up so a due tick is never woken for a few microseconds early.
        let timeout = timeoutMicros.map { Int32(clamping: max(0, ($0 + 999) / 1000)) } ?? -1
        var woken = Woken()
        let rc = poll(&fds, nfds_t(fds.count), timeout)
        if rc < 0 {
            woken.interrupted = errno == EINTR
            return woken
        }
        let ready = Int16(POLLIN | POLLHUP | POLLERR)
        woken.terminal = fds[0].revents & ready != 0
        var i = 1
        if wakePipe != nil { woken.wakePipe = fds[i].revents & ready != 0; i += 1 }
        if let storeWatcher { woken.store = fds[i].revents & ready != 0 && storeWatcher.drain() }
        return woken
    }
}
