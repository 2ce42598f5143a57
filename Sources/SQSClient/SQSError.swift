import Foundation
import SharedRules

/// A failed SQS call, classified so the poller knows whether to retry, stop, or report.
public struct SQSError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Throttling (HTTP 429 or a throttling code): retry with backoff.
        case throttled
        /// HTTP 5xx: retry with backoff.
        case server
        /// No complete HTTP response (connection refused, timeout, reset, DNS): see `transport`.
        case network
        /// Credentials missing, rejected or expired: stop and tell the user how to fix them.
        case auth
        /// The queue does not exist (in this region, at this endpoint): stop.
        case queueMissing
        /// The caller's CancellationToken fired.
        case cancelled
        /// Any other error the request itself caused.
        case client
    }

    public var kind: Kind
    /// The AWS error code (`QueueDoesNotExist`, `SignatureDoesNotMatch`, ...), or `HTTP 500` and
    /// the like when the server sent none. Safe for a terminal (sanitized when the error is made).
    public private(set) var code: String
    /// The server's (or transport's) message, safe for a terminal and at most 500 characters.
    public private(set) var message: String
    /// HTTP status; nil when no response arrived.
    public var httpStatus: Int?
    /// The transport failure behind a `.network` or `.cancelled` error.
    public var transport: TransportError?
    /// Endpoint clock minus local clock (seconds), from the answer's `Date` header, when it was read
    /// because the error may come from a wrong clock (`RequestExpired`, `SignatureDoesNotMatch`).
    public var clockSkew: TimeInterval?

    /// `code` and `message` come from the network: they are sanitized here, where they enter, so no
    /// caller can print them raw.
    public init(kind: Kind, code: String, message: String, httpStatus: Int? = nil, transport: TransportError? = nil) {
        self.kind = kind
        self.code = String(DisplayText.sanitize(code).prefix(100))
        self.message = String(DisplayText.sanitize(message).prefix(500))
        self.httpStatus = httpStatus
        self.transport = transport
    }

    /// A clock skew beyond this makes AWS refuse signatures (it allows 5 minutes).
    public static let clockSkewLimit: TimeInterval = 300

    /// True when the endpoint's clock differs from the local one by more than AWS allows.
    public var isClockSkewed: Bool { clockSkew.map { abs($0) > Self.clockSkewLimit } ?? false }

    /// Whether the same call may succeed later (throttling, 5xx, retryable network failures).
    public var isRetryable: Bool {
        switch kind {
        case .throttled, .server: return true
        case .network: return transport?.isRetryable ?? true
        case .auth, .queueMissing, .cancelled, .client: return false
        }
    }

    public var description: String {
        var text = "\(code)"
        if let clockSkew, isClockSkewed {
            let minutes = Int((abs(clockSkew) / 60).rounded())
            text += " (this computer's clock is \(minutes) min \(clockSkew > 0 ? "behind" : "ahead of") the endpoint's"
                + " Date header: set the clock right, e.g. enable NTP with `timedatectl set-ntp true`)"
        }
        if !message.isEmpty { text += ": \(message)" }
        if let httpStatus { text += " (HTTP \(httpStatus))" }
        return text
    }
}

extension SQSError {
    static let authCodes: Set<String> = [
        "InvalidClientTokenId", "SignatureDoesNotMatch", "ExpiredToken", "ExpiredTokenException",
        "AccessDenied", "AccessDeniedException", "UnrecognizedClientException", "MissingAuthenticationToken",
        "MissingAuthenticationTokenException", "IncompleteSignature", "IncompleteSignatureException",
        "InvalidSecurity", "AuthFailure", "InvalidAccessKeyId", "RequestExpired", "KMS.AccessDeniedException",
        "CredentialsUnavailable", "InvalidSignatureException", "RequestTimeTooSkewed",
    ]
    /// Auth codes meaning "valid credentials, but not allowed" (the rest mean the credentials were refused).
    public static let accessDeniedCodes: Set<String> = [
        "AccessDenied", "AccessDeniedException", "KMS.AccessDeniedException",
    ]
    static let queueMissingCodes: Set<String> = [
        "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "NonExistentQueue",
    ]
    static let throttlingCodes: Set<String> = [
        "ThrottlingException", "Throttling", "RequestThrottled", "TooManyRequestsException",
        "RequestLimitExceeded", "RequestThrottledException", "SlowDown", "KMS.ThrottlingException",
        "AWS.SimpleQueueService.RequestThrottled",
    ]

    /// Classifies an error response by its codes (from `__type` and from `x-amzn-query-error`) and status.
    static func classify(codes: [String], status: Int) -> Kind {
        if codes.contains(where: queueMissingCodes.contains) { return .queueMissing }
        if codes.contains(where: authCodes.contains) { return .auth }
        if status == 429 || codes.contains(where: throttlingCodes.contains) { return .throttled }
        if status >= 500 { return .server }
        if status == 401 || status == 403 { return .auth }
        return .client
    }

    /// A transport failure as an SQSError.
    init(transport: TransportError) {
        self.init(
            kind: transport.kind == .cancelled ? .cancelled : .network,
            code: transport.kind == .cancelled ? "Cancelled" : "NetworkError",
            message: transport.message, transport: transport)
    }
}
