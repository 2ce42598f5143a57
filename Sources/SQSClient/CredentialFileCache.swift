import Foundation
import SigV4
import StrictJSON

/// Temporary credentials kept in a file between short-lived runs (as the AWS CLI's `cli/cache`), so a
/// process that lives a second — an agent's hook — does not call STS, SSO, IMDS or a `credential_process`
/// every time. Used until `CredentialChain.refreshMargin` before they expire; the file is 0600 in a 0700
/// directory. Keys without an expiry (static keys) are never written, and environment keys bypass the
/// cache altogether (they always win, as in the chain).
public final class CredentialFileCache: CredentialsProvider, Sendable {
    private let wrapped: any CredentialsProvider
    private let file: URL
    private let bypass: Bool
    private let now: @Sendable () -> Date

    /// `directory` holds one file per `identity` (the profile and role the chain resolves for).
    public init(wrapping provider: any CredentialsProvider, directory: URL, identity: String, bypass: Bool,
                now: @escaping @Sendable () -> Date = { Date() }) {
        wrapped = provider
        file = directory.appendingPathComponent("credentials-\(Self.fnv1a(identity)).json")
        self.bypass = bypass
        self.now = now
    }

    /// The cache for `chain`: bypassed when the environment holds keys.
    public convenience init(chain: CredentialChain, directory: URL) {
        let environment = chain.environment
        let identity = [chain.profile, environment["AWS_ROLE_ARN"] ?? "", environment["AWS_CONFIG_FILE"] ?? "",
                        environment["AWS_SHARED_CREDENTIALS_FILE"] ?? ""].joined(separator: "\u{1F}")
        self.init(wrapping: chain, directory: directory, identity: identity,
                  bypass: !(environment["AWS_ACCESS_KEY_ID"] ?? "").isEmpty)
    }

    public func credentials() throws(CredentialsError) -> AWSCredentials {
        if bypass { return try wrapped.credentials() }
        if let cached = read(), let expiration = cached.expiration,
           now() < expiration.addingTimeInterval(-CredentialChain.refreshMargin) {
            return cached
        }
        let fresh = try wrapped.credentials()
        if fresh.expiration != nil { store(fresh) }
        return fresh
    }

    public func invalidate() {
        unlink(file.path)
        wrapped.invalidate()
    }

    private func read() -> AWSCredentials? {
        guard let data = FileManager.default.contents(atPath: file.path),
              let object = JSONReader.object(from: Array(data)),
              let key = object["AccessKeyId"] as? String, let secret = object["SecretAccessKey"] as? String,
              let expiration = (object["Expiration"] as? Double) ?? (object["Expiration"] as? Int).map(Double.init)
        else { return nil }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: object["SessionToken"] as? String,
                              expiration: Date(timeIntervalSince1970: expiration),
                              source: ((object["Source"] as? String) ?? "credentials") + " (cached)")
    }

    private func store(_ credentials: AWSCredentials) {
        guard let expiration = credentials.expiration else { return }
        var object: [String: Any] = [
            "AccessKeyId": credentials.accessKeyID, "SecretAccessKey": credentials.secretAccessKey,
            "Expiration": expiration.timeIntervalSince1970.rounded(.down), "Source": credentials.source,
        ]
        if let token = credentials.sessionToken { object["SessionToken"] = token }
        guard let bytes = JSONWriter.encode(object) else { return }
        let directory = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        chmod(directory.path, 0o700)
        let temporary = directory.appendingPathComponent(".tmp-\(getpid())-\(file.lastPathComponent)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if written != bytes.count || rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
    }

    /// A stable file name for an identity (not a secret: profile and role names).
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
