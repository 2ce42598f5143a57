import SharedRules
/// A failure below HTTP: the request got no complete response.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Name resolution failed.
        case dns
        /// Connection refused or unreachable.
        case connect
        /// Connect or total timeout.
        case timeout
        /// The connection broke mid-exchange (reset, empty reply, partial body).
        case connectionLost
        /// The TLS handshake failed.
        case tls
        /// The server's certificate did not verify (not retried: it will not fix itself).
        case certificate
        /// The URL cannot be used (malformed, unsupported scheme).
        case invalidURL
        /// The answer passed what the call may return (`ResponseLimit`): reading stopped.
        case responseTooLarge
        /// The connected address is not one the request may go to (`PeerPolicy`): nothing was sent.
        case refusedAddress
        /// The caller's CancellationToken fired.
        case cancelled
        /// Anything else.
        case other
    }

    public var kind: Kind
    /// libcurl's CURLcode (0 when not from curl).
    public var code: Int
    /// Safe for a terminal (sanitized when the error is made: it may quote a host name or a server).
    public private(set) var message: String

    public init(kind: Kind, code: Int = 0, message: String) {
        self.kind = kind
        self.code = code
        self.message = DisplayText.sanitize(message)
    }

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch kind {
        case .dns, .connect, .timeout, .connectionLost, .tls: return true
        case .certificate, .invalidURL, .cancelled, .other, .responseTooLarge, .refusedAddress: return false
        }
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
