import Foundation
import SharedRules
import SigV4
import StrictJSON

/// SQS over the AWS JSON 1.0 protocol: every call is a signed `POST /` to the endpoint with
/// `X-Amz-Target: AmazonSQS.<Action>` and the queue URL in the body. Thread-safe; calls block,
/// so run them on background threads (several long polls may be in flight at once).
public final class SQSClient: Sendable {
    public let endpoint: URL
    public let region: String
    public let credentialsProvider: any CredentialsProvider
    public let transport: any HTTPTransport
    private let clock: @Sendable () -> Date
    /// What every request signs from `endpoint`, worked out once (Foundation's URL accessors cost more
    /// than the rest of the signing): the `Host` header, the path and the query.
    private let hostHeader: String
    private let signingPath: String
    private let signingQuery: String
    /// Added to a long poll's wait time to bound the whole call.
    public static let timeoutMargin: TimeInterval = 10
    /// Bound for calls that do not long-poll.
    public static let shortCallTimeout: TimeInterval = 30

    /// `endpoint`: e.g. `https://sqs.eu-west-1.amazonaws.com` or `http://127.0.0.1:4566`.
    /// `clock` is the time used to sign (tests may skew it).
    public init(
        endpoint: URL, region: String, credentials: any CredentialsProvider,
        transport: any HTTPTransport = CurlTransport(), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.endpoint = endpoint
        self.region = region
        self.credentialsProvider = credentials
        self.transport = transport
        self.clock = clock
        hostHeader = Self.hostHeader(for: endpoint)
        signingPath = endpoint.path.isEmpty ? "/" : endpoint.path
        signingQuery = endpoint.query ?? ""
    }

    // MARK: - Calls

    /// Long-polls for up to `maxMessages` (1–10) messages, waiting up to `waitSeconds` (0–20).
    /// Asks for `ApproximateReceiveCount`, `SentTimestamp` and `SenderId` (who sent it: replies are accepted
    /// only from allowed senders). An empty array means none arrived.
    public func receiveMessage(
        queueURL: String, maxMessages: Int = 10, waitSeconds: Int = 20, visibilityTimeout: Int? = nil,
        attemptID: String? = nil, cancel: CancellationToken? = nil
    ) throws(SQSError) -> [SQSMessage] {
        // Members in sorted key order (as JSONWriter writes a dictionary).
        var body = JSONObjectWriter()
        body.add("AttributeNames", ["ApproximateReceiveCount", "SenderId", "SentTimestamp"])
        body.add("MaxNumberOfMessages", min(10, max(1, maxMessages)))
        body.add("MessageSystemAttributeNames", ["ApproximateReceiveCount", "SenderId", "SentTimestamp"])
        body.add("QueueUrl", queueURL)
        // FIFO queues: repeating a failed receive with the same attempt id returns the same messages
        // instead of leaving them invisible (and their group blocked) until the visibility timeout.
        if let attemptID { body.add("ReceiveRequestAttemptId", attemptID) }
        if let visibilityTimeout { body.add("VisibilityTimeout", visibilityTimeout) }
        body.add("WaitTimeSeconds", min(20, max(0, waitSeconds)))
        let answer = try answerBody(
            "ReceiveMessage", body: body.bytes, timeout: TimeInterval(waitSeconds) + Self.timeoutMargin, cancel: cancel)
        guard let messages = SQSMessage.messages(inReceiveAnswer: answer.body) else {
            throw Self.malformed("ReceiveMessage", answer)
        }
        return messages
    }

    /// Deletes up to 10 messages. Per-entry failures come back in `failed` (the call itself succeeds).
    public func deleteMessageBatch(queueURL: String, entries: [DeleteEntry]) throws(SQSError) -> BatchResult {
        var body = JSONObjectWriter()
        body.add("Entries", entries.map { entry in
            var item = JSONObjectWriter()
            item.add("Id", entry.id)
            item.add("ReceiptHandle", entry.receiptHandle)
            return item
        })
        body.add("QueueUrl", queueURL)
        return Self.batchResult(try call("DeleteMessageBatch", body: body.bytes))
    }

    /// Sends one message; returns its SQS message id (sanitized: it is printed, never looked up). FIFO
    /// queues need `groupID` (and `deduplicationID` unless content-based deduplication is on).
    public func sendMessage(
        queueURL: String, body: String, delaySeconds: Int? = nil, groupID: String? = nil, deduplicationID: String? = nil
    ) throws(SQSError) -> String {
        var request: [String: Any] = ["QueueUrl": queueURL, "MessageBody": body]
        if let delaySeconds { request["DelaySeconds"] = delaySeconds }
        if let groupID { request["MessageGroupId"] = groupID }
        if let deduplicationID { request["MessageDeduplicationId"] = deduplicationID }
        let reply = try call("SendMessage", request)
        guard let id = reply["MessageId"] as? String else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "SendMessage answer has no MessageId")
        }
        return DisplayText.sanitize(id)
    }

    /// Sends up to 10 messages; `messageIDs` maps entry ids to SQS message ids.
    public func sendMessageBatch(queueURL: String, entries: [SendEntry]) throws(SQSError) -> BatchResult {
        let reply = try call("SendMessageBatch", [
            "QueueUrl": queueURL,
            "Entries": entries.map { entry -> [String: Any] in
                var item: [String: Any] = ["Id": entry.id, "MessageBody": entry.body]
                if let delay = entry.delaySeconds { item["DelaySeconds"] = delay }
                return item
            },
        ])
        return Self.batchResult(reply)
    }

    /// The URL of the queue named `name`.
    public func getQueueURL(name: String, ownerAccountID: String? = nil) throws(SQSError) -> String {
        var request: [String: Any] = ["QueueName": name]
        if let ownerAccountID { request["QueueOwnerAWSAccountId"] = ownerAccountID }
        let reply = try call("GetQueueUrl", request)
        guard let url = reply["QueueUrl"] as? String else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "GetQueueUrl answer has no QueueUrl")
        }
        // It is printed and used as a URL: one that is not plain printable text is refused, not shown.
        guard DisplayText.sanitize(url) == url, !url.contains(" ") else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "GetQueueUrl answered an invalid URL: \(url)")
        }
        return url
    }

    /// Queue attributes (`ApproximateNumberOfMessages`, ...); `names` defaults to all. Names and values
    /// are sanitized for the terminal (they are shown, e.g. by `doctor`). `timeout` bounds the call.
    public func getQueueAttributes(
        queueURL: String, names: [String] = ["All"], timeout: TimeInterval = SQSClient.shortCallTimeout
    ) throws(SQSError) -> [String: String] {
        let reply = try call("GetQueueAttributes", ["QueueUrl": queueURL, "AttributeNames": names], timeout: timeout)
        var attributes: [String: String] = [:]
        for (key, value) in reply["Attributes"] as? [String: Any] ?? [:] {
            attributes[DisplayText.sanitize(key)] = DisplayText.sanitize("\(value)")
        }
        return attributes
    }

    /// Sets queue attributes (`Policy`, `RedrivePolicy`, `MessageRetentionPeriod`, ...).
    public func setQueueAttributes(queueURL: String, attributes: [String: String]) throws(SQSError) {
        _ = try call("SetQueueAttributes", ["QueueUrl": queueURL, "Attributes": attributes])
    }

    /// Makes a received message visible again after `visibilityTimeout` seconds (0 = at once).
    public func changeMessageVisibility(queueURL: String, receiptHandle: String, visibilityTimeout: Int) throws(SQSError) {
        _ = try call("ChangeMessageVisibility", [
            "QueueUrl": queueURL, "ReceiptHandle": receiptHandle, "VisibilityTimeout": visibilityTimeout,
        ])
    }

    /// Sets the visibility timeout of up to 10 received messages (`receiptHandles`) in one call; per-entry
    /// failures come back in `failed`. `timeout` bounds the call.
    public func changeMessageVisibilityBatch(
        queueURL: String, receiptHandles: [String], visibilityTimeout: Int,
        timeout: TimeInterval = SQSClient.shortCallTimeout
    ) throws(SQSError) -> BatchResult {
        let reply = try call("ChangeMessageVisibilityBatch", [
            "QueueUrl": queueURL,
            "Entries": receiptHandles.enumerated().map { index, handle -> [String: Any] in
                ["Id": "v\(index)", "ReceiptHandle": handle, "VisibilityTimeout": visibilityTimeout]
            },
        ], timeout: timeout)
        return Self.batchResult(reply)
    }

    /// Creates a queue (or returns the existing one's URL).
    public func createQueue(name: String, attributes: [String: String] = [:]) throws(SQSError) -> String {
        var request: [String: Any] = ["QueueName": name]
        if !attributes.isEmpty { request["Attributes"] = attributes }
        let reply = try call("CreateQueue", request)
        guard let url = reply["QueueUrl"] as? String else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "CreateQueue answer has no QueueUrl")
        }
        return url
    }

    /// Deletes every message in the queue.
    public func purgeQueue(queueURL: String) throws(SQSError) {
        _ = try call("PurgeQueue", ["QueueUrl": queueURL])
    }

    /// Deletes the queue.
    public func deleteQueue(queueURL: String) throws(SQSError) {
        _ = try call("DeleteQueue", ["QueueUrl": queueURL])
    }

    // MARK: - Protocol

    /// Signs and sends one JSON 1.0 call; returns the decoded JSON object (`{}` for an empty body).
    func call(
        _ action: String, _ payload: [String: Any], timeout: TimeInterval = SQSClient.shortCallTimeout,
        cancel: CancellationToken? = nil
    ) throws(SQSError) -> [String: Any] {
        try call(action, body: try Self.encode(action, payload), timeout: timeout, cancel: cancel)
    }

    /// `call` with the request body already written.
    func call(
        _ action: String, body: [UInt8], timeout: TimeInterval = SQSClient.shortCallTimeout,
        cancel: CancellationToken? = nil
    ) throws(SQSError) -> [String: Any] {
        let response = try answerBody(action, body: body, timeout: timeout, cancel: cancel)
        if response.body.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x0d }) { return [:] }
        guard let object = JSONReader.object(from: response.body) else { throw Self.malformed(action, response) }
        return object
    }

    /// Sends one call and returns its answer when the status is a success; throws the error it describes
    /// otherwise.
    func answerBody(
        _ action: String, body: [UInt8], timeout: TimeInterval = SQSClient.shortCallTimeout,
        cancel: CancellationToken? = nil
    ) throws(SQSError) -> HTTPResponse {
        let response = try exchange(action, body, timeout: timeout, cancel: cancel)
        guard (200..<300).contains(response.status) else {
            var error = ErrorResponseDecoder.decode(response)
            if Self.clockSensitiveCodes.contains(error.code) { error.clockSkew = clockSkew(of: response) }
            // Temporary credentials the server calls expired: fetch new ones for the next call.
            if error.kind == .auth, ["ExpiredToken", "ExpiredTokenException", "RequestExpired"].contains(error.code) {
                credentialsProvider.invalidate()
            }
            throw error
        }
        return response
    }

    /// The error for a successful answer that is not the JSON object `action` answers with.
    static func malformed(_ action: String, _ response: HTTPResponse) -> SQSError {
        SQSError(
            kind: .server, code: "MalformedResponse",
            message: "\(action) answer is not a JSON object: \(ErrorResponseDecoder.summarize(response.text))",
            httpStatus: response.status)
    }

    /// Errors a wrong local clock causes: for these the answer's `Date` header is compared with the clock.
    static let clockSensitiveCodes: Set<String> = [
        "RequestExpired", "SignatureDoesNotMatch", "InvalidSignatureException", "RequestTimeTooSkewed",
    ]

    /// Endpoint clock minus local clock, from a response's `Date` header (nil without one).
    func clockSkew(of response: HTTPResponse) -> TimeInterval? {
        guard let header = response.headers.value(for: "Date"), let serverDate = Self.parseHTTPDate(header) else {
            return nil
        }
        return serverDate.timeIntervalSince(clock())
    }

    /// Signs and sends one call; returns the response whatever its status.
    func exchange(
        _ action: String, _ body: [UInt8], timeout: TimeInterval, cancel: CancellationToken?
    ) throws(SQSError) -> HTTPResponse {
        try Self.requireCrypto()
        let credentials: AWSCredentials
        do {
            credentials = try credentialsProvider.credentials()
        } catch {
            throw SQSError(kind: .auth, code: "CredentialsUnavailable", message: error.message)
        }
        let request = signedRequest(action: action, body: body, credentials: credentials)
        do {
            return try transport.send(request, timeout: timeout, cancel: cancel)
        } catch {
            throw SQSError(transport: error)
        }
    }

    /// Throws, instead of letting the first signature stop the program, when libcrypto cannot be loaded
    /// (it is opened at the first request: see COpenSSL's shim.h). Checked before credentials too (an SSO
    /// cache name or an assumed role needs a digest).
    static func requireCrypto() throws(SQSError) {
        if let problem = Digest.libraryProblem { throw SQSError(kind: .client, code: "LibraryMissing", message: problem) }
    }

    /// The JSON body of `action`'s `payload`.
    static func encode(_ action: String, _ payload: [String: Any]) throws(SQSError) -> [UInt8] {
        guard let body = JSONWriter.encode(payload) else {
            throw SQSError(kind: .client, code: "InvalidRequest", message: "could not encode \(action) request")
        }
        return body
    }

    /// Server clock minus local clock, in seconds, from the `Date` header of a signed `ListQueues`
    /// answer (read even when the answer is an error: skew is a common cause of auth failures).
    public func serverClockOffset() throws(SQSError) -> TimeInterval {
        let sentAt = clock()
        let response = try exchange("ListQueues", try Self.encode("ListQueues", ["MaxResults": 1]), timeout: Self.shortCallTimeout, cancel: nil)
        let receivedAt = clock()
        guard let header = response.headers.value(for: "Date"), let serverDate = Self.parseHTTPDate(header) else {
            throw SQSError(kind: .server, code: "NoDateHeader", message: "the endpoint's answer has no Date header", httpStatus: response.status)
        }
        let localMidpoint = sentAt.addingTimeInterval(receivedAt.timeIntervalSince(sentAt) / 2)
        return serverDate.timeIntervalSince(localMidpoint)
    }

    /// Parses an IMF-fixdate (`Sun, 22 Nov 2026 03:51:43 GMT`).
    static func parseHTTPDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    /// The HTTP request for `action`, with SigV4 headers for service `sqs` in `region`.
    func signedRequest(action: String, body: [UInt8], credentials: AWSCredentials) -> HTTPRequest {
        var headers = [
            HTTPHeader("Host", hostHeader),
            HTTPHeader("Content-Type", "application/x-amz-json-1.0"),
            HTTPHeader("X-Amz-Target", "AmazonSQS.\(action)"),
        ]
        let signing = SigningRequest(method: "POST", path: signingPath, query: signingQuery, headers: headers, body: body)
        headers += SigV4Signer.sign(request: signing, credentials: credentials, region: region, service: "sqs", date: clock())
        return HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body,
                           responseLimit: action == "ReceiveMessage" ? .sqsReceive : .sqsCall)
    }

    /// `host` or `host:port` when the port is not the scheme's default (what curl would send).
    static func hostHeader(for url: URL) -> String {
        let host = url.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port = url.port else { return bracketed }
        let scheme = url.scheme?.lowercased()
        if (scheme == "https" && port == 443) || (scheme == "http" && port == 80) { return bracketed }
        return "\(bracketed):\(port)"
    }

    static func batchResult(_ reply: [String: Any]) -> BatchResult {
        var result = BatchResult()
        for item in reply["Successful"] as? [[String: Any]] ?? [] {
            guard let id = item["Id"] as? String else { continue }
            result.successful.append(id)
            if let messageID = item["MessageId"] as? String { result.messageIDs[id] = DisplayText.sanitize(messageID) }
        }
        for item in reply["Failed"] as? [[String: Any]] ?? [] {
            result.failed.append(BatchFailure(
                id: item["Id"] as? String ?? "",
                code: item["Code"] as? String ?? "",
                message: item["Message"] as? String ?? "",
                senderFault: item["SenderFault"] as? Bool ?? false))
        }
        return result
    }
}
