import Foundation

/// A new private (0700) temporary directory, removed with everything in it when the value is released.
/// The one temporary-directory helper of the Swift tests.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// The directory as a path.
    public var path: String { url.path }

    /// Creates `$TMPDIR/<prefix>-<random>`.
    public init(prefix: String = "timeline-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory (not created).
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (0600; 0700 when `executable`), creating parent folders; returns the path.
    @discardableResult
    public func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        // Written through a close-on-exec descriptor (a descriptor without it would be inherited by processes
        // other tests start meanwhile, and running this file while one of them holds it open for writing
        // fails with "Text file busy"), then renamed into place so readers never see half a file.
        let staging = file.path + ".writing-\(UUID().uuidString)"
        let fd = open(staging, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestSetupError("cannot create \(staging): \(String(cString: strerror(errno)))") }
        var closed = false
        defer { if !closed { close(fd); unlink(staging) } }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw TestSetupError("cannot write \(file.path): \(String(cString: strerror(errno)))") }
            written += n
        }
        guard fchmod(fd, executable ? 0o700 : 0o600) == 0 else { throw TestSetupError("cannot chmod \(staging)") }
        closed = true
        close(fd)
        guard rename(staging, file.path) == 0 else {
            unlink(staging)
            throw TestSetupError("cannot rename into \(file.path): \(String(cString: strerror(errno)))")
        }
        return file.path
    }

    /// An environment with only HOME (this directory), PATH, instance metadata switched off (tests that
    /// want it set AWS_EC2_METADATA_DISABLED back) and `extra`.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "AWS_EC2_METADATA_DISABLED": "true",
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }
}
