import Foundation

/// Notices writes to the database by other processes (`timeline poll`, `timeline import` beside
/// `timeline tui --no-poll`) through inotify on its write-ahead log, so the loop need not poll
/// `data_version` often. Watches the WAL file for writes and the directory for the WAL's (re)creation.
final class StoreWatcher {
    let fd: Int32
    private let directory: String
    private let walName: String
    private var walWatch: Int32 = -1

    /// Nil when inotify is unavailable (the loop then relies on the `data_version` check alone).
    init?(databasePath: String) {
        let url = URL(fileURLWithPath: databasePath)
        directory = url.deletingLastPathComponent().path
        walName = url.lastPathComponent + "-wal"
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        watchWAL()
    }

    deinit { close(fd) }

    /// Reads every pending event; true when the WAL was written or (re)created.
    func drain() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let (wd, mask, nameLength) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, e.mask, Int(e.len))
                }
                let nameBytes = buffer[(offset + header)..<min(count, offset + header + nameLength)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                if wd == walWatch && mask & UInt32(IN_MODIFY) != 0 { changed = true }
                if mask & UInt32(IN_IGNORED) != 0 && wd == walWatch { walWatch = -1 }
                if name == walName && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    watchWAL()
                    changed = true
                }
                offset += header + nameLength
            }
        }
        return changed
    }

    /// (Re)watches the WAL file for writes; a missing file is watched once the directory reports it.
    private func watchWAL() {
        let wd = inotify_add_watch(fd, directory + "/" + walName, UInt32(IN_MODIFY))
        if wd >= 0 { walWatch = wd }
    }
}
