import Foundation

/// Paths inside this repository and beside it, for tests.
public enum RepositoryPaths {
    /// The repository root (found from this source file's location).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
