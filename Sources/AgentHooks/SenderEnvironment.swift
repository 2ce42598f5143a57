import Foundation

/// The environment a hook hands to its background sender, which starts in `/` (it may outlive the hook
/// by minutes, and must not hold the project's directory, or the file system under it, busy): each
/// variable naming a file or directory that is read later is made absolute against the hook's working
/// directory, so it names the same file from `/`. Hooks compute their settings (`HookSenderIdentity`)
/// from this environment too, so the sender they start has the same.
public enum SenderEnvironment {
    /// The variables holding a path the sender reads: the config file, the AWS files, OpenSSL's
    /// certificates, the home directory. (A relative `XDG_*` directory is ignored, as its specification
    /// says, from anywhere.)
    static let pathVariables: Set<String> = [
        "TIMELINE_CONFIG", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE",
        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "SSL_CERT_FILE", "SSL_CERT_DIR", "HOME",
    ]

    /// `environment` with every relative path of `pathVariables` made absolute against `directory`.
    public static func resolvingPaths(_ environment: [String: String], against directory: String) -> [String: String] {
        var resolved = environment
        for name in pathVariables {
            guard let value = environment[name], !value.isEmpty, !value.hasPrefix("/") else { continue }
            resolved[name] = URL(fileURLWithPath: value, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
                .standardizedFileURL.path
        }
        return resolved
    }

    /// This process's environment, resolved against its working directory.
    public static func current() -> [String: String] {
        resolvingPaths(ProcessInfo.processInfo.environment, against: FileManager.default.currentDirectoryPath)
    }
}
