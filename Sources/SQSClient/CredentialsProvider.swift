import Foundation

/// Supplies credentials for each request; implementations cache and refresh as needed.
public protocol CredentialsProvider: Sendable {
    /// Current credentials, or an error whose message says where it looked and how to fix it.
    func credentials() throws(CredentialsError) -> AWSCredentials
    /// Drops cached credentials (the server said they expired); the next call fetches new ones.
    func invalidate()
}

extension CredentialsProvider {
    public func invalidate() {}
}

/// Always the same credentials.
public struct StaticCredentialsProvider: CredentialsProvider {
    public let value: AWSCredentials

    public init(_ value: AWSCredentials) { self.value = value }

    public func credentials() throws(CredentialsError) -> AWSCredentials { value }
}
