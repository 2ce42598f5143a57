import Foundation

/// A temporary directory removed when the value is deinitialised.
final class TempDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sqs-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to `name` (0600) and returns the path; `executable` makes it 0700.
    @discardableResult
    func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: executable ? 0o700 : 0o600], ofItemAtPath: file.path)
        return file.path
    }

    /// An environment with only HOME (this directory), PATH, and instance metadata switched off
    /// (tests that want it set AWS_EC2_METADATA_DISABLED back).
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": url.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "AWS_EC2_METADATA_DISABLED": "true",
        ]
        for (key, value) in extra { environment[key] = value }
        return environment
    }
}
