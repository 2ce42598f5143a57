/// How much of an answer the transport reads before it stops: what the call can legitimately return, with
/// room to spare, so an endpoint that never stops answering cannot grow the process. Every limit is here.
public struct ResponseLimit: Sendable, Equatable {
    /// Body bytes (as received; a larger `Content-Length` is refused before reading).
    public var bodyBytes: Int
    /// Bytes of all header lines together (interim responses included).
    public var headerBytes: Int

    public init(bodyBytes: Int, headerBytes: Int = ResponseLimit.headerBytes) {
        self.bodyBytes = bodyBytes
        self.headerBytes = headerBytes
    }

    private static let kiB = 1_024
    private static let miB = 1_024 * 1_024

    /// AWS answers carry about 1 KiB of headers; webhooks and local servers little more.
    public static let headerBytes = 64 * kiB
    /// ReceiveMessage: 10 messages of up to 1 MiB (attributes included), up to 3× in JSON escaping
    /// (`\uXXXX` for non-ASCII), plus receipt handles and digests.
    public static let sqsReceive = ResponseLimit(bodyBytes: 32 * miB)
    /// Other SQS calls: a ListQueues page of 1,000 URLs, a batch of 10 results, queue attributes.
    public static let sqsCall = ResponseLimit(bodyBytes: 1 * miB)
    /// SNS (XML): a page of 100 topics or subscriptions.
    public static let sns = ResponseLimit(bodyBytes: 1 * miB)
    /// STS (XML): one identity or one set of credentials.
    public static let sts = ResponseLimit(bodyBytes: 256 * kiB)
    /// IAM Identity Center and SSO-OIDC (JSON): one token or one role's credentials.
    public static let sso = ResponseLimit(bodyBytes: 256 * kiB)
    /// Container credentials and IMDS: a token, a role name or one credential document.
    public static let machineCredentials = ResponseLimit(bodyBytes: 64 * kiB)
    /// Webhooks: only the status is used, the body is not.
    public static let webhook = ResponseLimit(bodyBytes: 64 * kiB)
    /// Requests that name no limit.
    public static let standard = sqsCall
}
