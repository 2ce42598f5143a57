import Foundation

/// A small tmpfs mounted on a fresh temporary directory: a disk that really fills up. Needs root (or
/// CAP_SYS_ADMIN); tests that use it are skipped with a clear message when mounting is impossible.
public final class TmpfsMount {
    public let directory: URL
    private var mounted = true

    /// Whether this process can mount a tmpfs (tried once, on a scratch directory).
    public static let isAvailable: Bool = {
        guard let probe = try? TmpfsMount(sizeKiB: 64) else { return false }
        probe.unmount()
        return true
    }()

    /// Why tests needing a mount are skipped here.
    public static let unavailableReason = "skipped: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN, "
        + "and `mount -t tmpfs`); the read-only store tests still cover store failures"

    public init(sizeKiB: Int) throws {
        // A bare mount point (not a `TemporaryDirectory`: it must outlive nothing and is removed by `unmount`).
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(sizeKiB)k,mode=0700", "tmpfs", directory.path]) else {
            try? FileManager.default.removeItem(at: directory)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    deinit { unmount() }

    /// Fills the file system with a file named `name` until it is full; returns its path.
    @discardableResult
    public func fill(name: String = "filler") -> String {
        let path = directory.appendingPathComponent(name).path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return path }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0x5A, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        return path
    }

    /// Unmounts (lazily, so open files do not block it) and removes the directory.
    public func unmount() {
        guard mounted else { return }
        mounted = false
        _ = Self.run("/bin/umount", ["-l", directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
