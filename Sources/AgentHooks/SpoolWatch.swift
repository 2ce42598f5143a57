import Foundation

/// Wakes a background sender when an event is spooled: inotify on the spool's directory, where `HookSpool.add`
/// renames each new event into place. Made before the sender's last look at the spool, so an event spooled
/// between that look and the wait still wakes it.
final class SpoolWatch {
    /// Why `wait` returned.
    enum Wake: Equatable {
        /// A file was renamed into the directory.
        case added
        /// Nothing came in time.
        case timedOut
        /// The directory was removed or moved away: nothing more will come through it.
        case gone
    }

    private let fd: Int32

    /// Nil when the watch cannot be made (no inotify, or the directory is missing).
    init?(directory: URL) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        let mask = UInt32(IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
        guard inotify_add_watch(fd, directory.path, mask) >= 0 else {
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
            return drain()
        }
    }

    /// Reads every queued notification; `.gone` when one says the directory went away.
    private func drain() -> Wake {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var wake = Wake.added
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return wake }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (mask, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.mask, Int(event.len))
                }
                if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { wake = .gone }
                offset += MemoryLayout<inotify_event>.size + length
            }
        }
    }
}
