import Foundation

/// Finds the AWS SigV4 test suite: `$SIGV4_TEST_SUITE`, else `$TIMELINE_SHARED/sigv4-test-suite`,
/// else `../shared/sigv4-test-suite` next to the repository root (found from this file's path).
enum TestSuiteLocation {
    static var candidates: [String] {
        let environment = ProcessInfo.processInfo.environment
        var paths: [String] = []
        if let explicit = environment["SIGV4_TEST_SUITE"], !explicit.isEmpty { paths.append(explicit) }
        if let shared = environment["TIMELINE_SHARED"], !shared.isEmpty { paths.append(shared + "/sigv4-test-suite") }
        let repoRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        paths.append(repoRoot.deletingLastPathComponent().appendingPathComponent("shared/sigv4-test-suite").path)
        return paths
    }

    /// The first candidate directory that exists, or nil.
    static var directory: URL? {
        candidates.first { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }.map { URL(fileURLWithPath: $0) }
    }

    /// Every case: a directory `X` holding `X.req`, found at any depth. Names are relative paths.
    static func cases() -> [String] {
        guard let root = directory,
              let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        var names: [String] = []
        for case let url as URL in walker where url.pathExtension == "req" {
            let folder = url.deletingLastPathComponent()
            guard folder.lastPathComponent == url.deletingPathExtension().lastPathComponent else { continue }
            names.append(String(folder.path.dropFirst(root.path.count + 1)))
        }
        return names.sorted()
    }
}
