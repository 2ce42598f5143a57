import Foundation

/// Wakes a background sender when an event is spooled: inotify on the spool's directory, where `HookSpool.add`
/// renames each new event into place. Made before the sender's last look at the spool, so an event spooled
/// between that look and the wait still wakes it.
///
/// The spool's removal is seen by its lock file's deletion (`HookSpool.senderLockName`): the sender holds
/// that file open, and an open file keeps the removed directory's own deletion from being reported until
/// it is closed.
final class SpoolWatch {
    /// Why `wait` returned.
    enum Wake: Equatable {
        /// A file was renamed into the directory.
        case added
        /// Nothing came in time.
        case timedOut
        /// The spool was removed or moved away: nothing more will come through it.
        case gone
    }

    private let fd: Int32

    /// Nil when the watch cannot be made (no inotify, or the directory is missing).
    init?(spool: HookSpool) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(fd, spool.directory.path, mask) >= 0 else {
            close(fd)
            return nil
        }
    }

    deinit { close(fd) }

    /// Waits up to `timeout` seconds for a file to come in (events already queued count).
    func wait(timeout: TimeInterval) -> Wake {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow, 86_400)) * 1000)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return .timedOut }
            if let wake = drain() { return wake }  // else only other files were deleted (events sent)
        }
    }

    /// Reads every queued notification: `.gone` when one says the spool went away, `.added` when a file
    /// came in, nil when neither.
    private func drain() -> Wake? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var wake: Wake?
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return wake }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let header = MemoryLayout<inotify_event>.size
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                let nameEnd = min(count, offset + header + length)
                let name = buffer[(offset + header)..<nameEnd].prefix { $0 != 0 }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0
                    || (mask & UInt32(IN_DELETE) != 0 && name.elementsEqual(HookSpool.senderLockName.utf8)) {
                    wake = .gone
                } else if mask & UInt32(IN_MOVED_TO) != 0, wake == nil {
                    wake = .added
                }
                offset += header + length
            }
        }
    }
}
