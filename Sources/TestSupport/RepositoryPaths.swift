import Foundation

/// Paths inside this repository and beside it, for tests.
public enum RepositoryPaths {
    /// The repository root (found from this source file's location).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A new private temporary directory (0700), removed by the caller when done.
    public static func temporaryDirectory(prefix: String = "timeline-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }
}
