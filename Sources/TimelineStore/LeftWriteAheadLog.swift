import Foundation

/// A write-ahead log a writer left beside the database (it stopped before folding the log in) on a file
/// system that is now read-only. SQLite reads such a log only through a shared-memory file (`-shm`) it
/// must create beside it, so no connection can open the database there, not even a read-only one (an
/// `immutable` open would not see what the log holds). Told apart so the message says so.
enum LeftWriteAheadLog {
    /// Whether the database at `path` is in that state: its file system read-only, a `-wal` beside it and
    /// no `-shm`.
    static func blocksOpening(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 else { return false }
        let files = FileManager.default
        return files.fileExists(atPath: path + "-wal") && !files.fileExists(atPath: path + "-shm")
    }
}
