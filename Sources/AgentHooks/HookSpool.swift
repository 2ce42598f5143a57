import Foundation

/// Events a hook could not send yet: one file per event (mode 0600) in a directory only the user can
/// read (0700), named so that their order is the order they were made, and marked with the settings
/// (`HookSenderIdentity`) they are to be sent with: a sender sends only its own. `HookPublisher` sends
/// them, oldest first, each under a lock of its own (`take`), and removes each once SQS has it.
public final class HookSpool: Sendable {
    /// The most events kept; when full, the oldest is dropped for the newest.
    public static let capacity = 5_000

    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/timeline`, else `~/.local/state/timeline`.
    public static func stateDirectory(environment: [String: String]) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("timeline")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/timeline")
    }

    /// The spool under a state directory.
    public convenience init(stateDirectory: URL) {
        self.init(directory: stateDirectory.appendingPathComponent("spool"))
    }

    /// Stores one payload, marked with the `settings` (a `HookSenderIdentity`) it is to be sent with;
    /// returns its file.
    @discardableResult
    public func add(_ payload: String, settings: String? = nil,
                    micros: Int64 = Int64(Date().timeIntervalSince1970 * 1_000_000)) throws -> URL {
        try Self.makePrivateDirectory(directory)
        let existing = pending()
        if existing.count >= Self.capacity {
            for old in existing.prefix(existing.count - Self.capacity + 1) { try? FileManager.default.removeItem(at: old) }
        }
        let mark = settings.flatMap { Self.isSettingsMark($0) ? ".\($0)" : nil } ?? ""
        let name = "\(Self.zeroPadded(micros, width: 19))-\(Self.zeroPadded(Int64(getpid()), width: 10))-\(UUID().uuidString.lowercased())\(mark).json"
        let file = directory.appendingPathComponent(name)
        try Self.writeWhole(Array(payload.utf8), to: file.path, via: directory.appendingPathComponent(".tmp-" + name).path)
        return file
    }

    /// Writes `bytes` to `path` whole: into `temporary` (0600, made new) first, then renamed over `path`.
    private static func writeWhole(_ bytes: [UInt8], to path: String, via temporary: String) throws {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HookSpoolError(path: temporary, errno: errno) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw HookSpoolError(path: path, errno: code)
        }
    }

    /// `value` (not negative) in decimal, zeros before it up to `width` digits: names sort as numbers.
    static func zeroPadded(_ value: Int64, width: Int) -> String {
        let digits = String(max(value, 0))
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    /// The waiting events' files, oldest first: all of them, or (`settings` given) those to be sent with
    /// those settings and those spooled before events were marked with theirs.
    public func pending(for settings: String? = nil) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            guard name.hasSuffix(".json"), !name.hasPrefix(".") else { return false }
            guard let settings, let mark = Self.settingsMark(ofName: name) else { return true }
            return mark == settings
        }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// How many events wait (for `settings`, as `pending(for:)` counts them).
    public func count(for settings: String? = nil) -> Int { pending(for: settings).count }

    /// How many events wait in all.
    public var count: Int { pending().count }

    /// The settings mark of a spooled event's file name ("….<mark>.json"), nil for one without.
    static func settingsMark(ofName name: String) -> String? {
        let stem = name.dropLast(".json".count)
        guard let dot = stem.lastIndex(of: ".") else { return nil }
        return String(stem[stem.index(after: dot)...])
    }

    /// A mark is letters and digits only (a file name part).
    static func isSettingsMark(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) }
    }

    /// What `take` found.
    public enum Take {
        /// The event is this caller's to send (`SpooledEvent.sent()` once SQS has it).
        case taken(SpooledEvent)
        /// Another process is sending it now.
        case busy
        /// It was sent (or dropped) meanwhile.
        case gone
    }

    /// Takes one spooled event for sending: an exclusive lock on its file, which no other sender gets
    /// until this one lets it go (`SpooledEvent`: when sent, on failure, or when this process ends, however
    /// it ends). Senders never wait for one another: one stuck on an endpoint that never answers holds
    /// only the event it is sending.
    public func take(_ file: URL) -> Take {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .gone }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return .busy
        }
        var info = stat()
        // Sent by the sender that held the lock before: it removes the file before letting the lock go.
        guard fstat(fd, &info) == 0, info.st_nlink > 0, let bytes = Self.readAll(fd) else {
            close(fd)
            return .gone
        }
        return .taken(SpooledEvent(file: file, fd: fd, payload: String(decoding: bytes, as: UTF8.self)))
    }

    /// The whole content of `fd` from its start; nil on a read error.
    private static func readAll(_ fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }

    /// Runs `body` holding the background sender's lock (flock on `sender.lock`), with `identity` and
    /// this process's pid in `sender.id` meanwhile (`runningSender`); nil when another background sender
    /// holds the lock, or when the spool's directory does not exist. At most one background sender runs
    /// per spool. The lock is waited for `senderLockWait` (a hook's `runningSender` holds it for an
    /// instant when none runs).
    public func withSenderLock<T>(identity: String, _ body: () throws -> T) rethrows -> T? {
        // Not made here: a sender of a spool that was removed (its events with it) has nothing to do.
        let fd = open(senderLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let deadline = Date().addingTimeInterval(Self.senderLockWait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline { return nil }
            usleep(5_000)
        }
        defer { flock(fd, LOCK_UN) }
        writeSenderIdentity("\(identity)\n\(getpid())\n")
        defer { unlink(senderIdentityPath) }  // before the lock goes: a sender that holds it names itself
        return try body()
    }

    /// The background sender that runs now, as it named itself in `sender.id` (its identity, then its
    /// pid, a line each); nil when none runs. Its identity is "" while it starts.
    public struct RunningSender: Sendable, Equatable {
        public var identity: String
        public var pid: Int32?
    }

    /// The running background sender (`withSenderLock`), nil when none runs.
    public func runningSender() -> RunningSender? {
        let fd = open(senderLockPath, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return nil
        }
        let lines = FileManager.default.contents(atPath: senderIdentityPath)
            .map { String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        return RunningSender(identity: lines.first.map(String.init) ?? "", pid: lines.dropFirst().first.flatMap { Int32($0) })
    }

    /// How long a background sender waits for its lock.
    static let senderLockWait: TimeInterval = 0.2

    /// The background sender's lock file: nothing but a removal of the spool deletes it.
    static let senderLockName = "sender.lock"
    private var senderLockPath: String { directory.appendingPathComponent(Self.senderLockName).path }
    private var senderIdentityPath: String { directory.appendingPathComponent("sender.id").path }

    /// Writes `text` to `sender.id` (0600, replaced whole; best effort: without it hooks send themselves).
    private func writeSenderIdentity(_ text: String) {
        let temporary = senderIdentityPath + ".tmp"
        unlink(temporary)  // one a sender killed while writing left
        try? Self.writeWhole(Array(text.utf8), to: senderIdentityPath, via: temporary)
    }

    /// Creates `url` (and its parents) as 0700 directories; an existing one is narrowed to 0700.
    static func makePrivateDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(url.path, 0o700)
        chmod(url.deletingLastPathComponent().path, 0o700)
    }
}

/// A spool file could not be written.
public struct HookSpoolError: Error, CustomStringConvertible {
    public var path: String
    public var errno: Int32
    public var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}

/// A spooled event taken for sending (`HookSpool.take`): its file stays locked while this lives.
public final class SpooledEvent: Sendable {
    public let file: URL
    public let payload: String
    private let fd: Int32

    init(file: URL, fd: Int32, payload: String) {
        (self.file, self.fd, self.payload) = (file, fd, payload)
    }

    /// SQS has it: the file goes, before its lock does (a sender waiting for the lock then finds it gone).
    public func sent() {
        unlink(file.path)
    }

    deinit { close(fd) }
}
