import CSQLite

/// What a failed SQLite call means for someone running `timeline`, and what to do about it: the one place
/// that maps SQLite's result codes (primary and extended) to a cause and a remedy.
public enum StorageProblem: String, Sendable, Equatable {
    /// No space left for the database or its journal (`SQLITE_FULL`).
    case full
    /// No space to grow the shared-memory file (`-shm`) next to the database (`SQLITE_IOERR_SHMSIZE`, 4874).
    case sharedMemoryFull
    /// The file, its directory or its file system cannot be written (`SQLITE_READONLY*`, `SQLITE_PERM`).
    case readOnly
    /// Another connection held the lock past the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    case busy
    /// The file is damaged (`SQLITE_CORRUPT*`) or not an SQLite database at all (`SQLITE_NOTADB`).
    case corrupt
    /// The operating system failed a read, write or sync (`SQLITE_IOERR*`).
    case ioError
    /// The file or its directory cannot be opened (`SQLITE_CANTOPEN`).
    case cannotOpen
    /// Anything else (a bug or a constraint: not retried differently).
    case other

    /// `SQLITE_IOERR_SHMSIZE`: extended code 4874.
    static let sharedMemorySizeCode: Int32 = 10 | (19 << 8)

    /// Classifies a primary and extended result code.
    public init(code: Int32, extendedCode: Int32) {
        if extendedCode == Self.sharedMemorySizeCode {
            self = .sharedMemoryFull
            return
        }
        switch code & 0xFF {
        case SQLITE_FULL: self = .full
        case SQLITE_READONLY, SQLITE_PERM: self = .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: self = .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt
        case SQLITE_IOERR: self = .ioError
        case SQLITE_CANTOPEN: self = .cannotOpen
        default: self = .other
        }
    }

    /// What it means, in a few words.
    public var meaning: String {
        switch self {
        case .full: "the disk holding the database is full"
        case .sharedMemoryFull: "no space to grow the database's shared-memory file (-shm) next to it: the disk is full"
        case .readOnly: "the database cannot be written (read-only file, directory or file system)"
        case .busy: "another process held the database locked for too long"
        case .corrupt: "the database file is damaged or is not a timeline database"
        case .ioError: "the operating system failed to read or write the database"
        case .cannotOpen: "the database file cannot be opened"
        case .other: "the database refused the operation"
        }
    }

    /// What to do about it.
    public var remedy: String {
        switch self {
        case .full, .sharedMemoryFull:
            "free space on that file system, or put the database on another one with --db"
        case .readOnly:
            "make the file and its directory writable by this user (chmod/chown, or remount read-write)"
        case .busy:
            "another timeline (or sqlite3) is writing to the same file; it retries by itself"
        case .corrupt:
            "move the file aside and start a new one (--db); `sqlite3 FILE .recover` may save its events"
        case .ioError:
            "check the disk and the kernel log (dmesg); a network or removable file system may have gone away"
        case .cannotOpen:
            "check that the directory exists and that this user may create files in it"
        case .other:
            "report it with the message above"
        }
    }
}

extension SQLiteError {
    /// What this failure means and what to do (see `StorageProblem`).
    public var problem: StorageProblem { StorageProblem(code: code, extendedCode: extendedCode) }

    /// One line for a user: SQLite's message, what it means and what to do; the codes and SQL after.
    public var explanation: String {
        "\(message): \(problem.meaning). \(problem.remedy.prefix(1).uppercased())\(problem.remedy.dropFirst()) "
            + "(SQLite error \(code), extended \(extendedCode))"
    }
}
