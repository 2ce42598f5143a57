import Foundation

/// Events a hook could not send yet: one file per event (mode 0600) in a directory only the user can
/// read (0700), named so that their order is the order they were made, and marked with the settings
/// (`HookSenderIdentity`) they are to be sent with: a sender sends only its own. `HookPublisher` sends
/// them, oldest first, under an exclusive lock, and removes each once SQS has it.
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

    /// Runs `body` holding the spool's lock (flock on `spool.lock`), waiting for it until `deadline`;
    /// nil when the lock could not be had in time.
    public func withLock<T>(until deadline: Date, _ body: () throws -> T) rethrows -> T? {
        guard (try? Self.makePrivateDirectory(directory)) != nil else { return nil }
        let fd = open(directory.appendingPathComponent("spool.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline { return nil }
            usleep(20_000)
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
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
