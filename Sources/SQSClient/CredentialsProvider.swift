import Foundation

/// Supplies credentials for each request; implementations cache and refresh as needed.
public protocol CredentialsProvider: Sendable {
    /// Current credentials, or an error whose message says where it looked and how to fix it.
    func credentials() throws(CredentialsError) -> AWSCredentials
}

/// Always the same credentials.
public struct StaticCredentialsProvider: CredentialsProvider {
    public let value: AWSCredentials

    public init(_ value: AWSCredentials) { self.value = value }

    public func credentials() throws(CredentialsError) -> AWSCredentials { value }
}

/// Credentials could not be found or obtained. The message never contains a secret.
public struct CredentialsError: Error, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
