import Foundation
import SigV4

/// SNS over its query protocol (`POST /`, form-encoded `Action=…&Version=2010-03-31`, XML answers),
/// signed by our own SigV4 for service `sns`. SNS offers no JSON protocol that local servers (moto)
/// accept, so timeline speaks the protocol every SNS endpoint understands. Thread-safe; calls block.
public final class SNSClient: Sendable {
    public let endpoint: URL
    public let region: String
    public let credentialsProvider: any CredentialsProvider
    public let transport: any HTTPTransport

    public init(endpoint: URL, region: String, credentials: any CredentialsProvider, transport: any HTTPTransport = CurlTransport()) {
        self.endpoint = endpoint
        self.region = region
        self.credentialsProvider = credentials
        self.transport = transport
    }

    /// A subscription of a topic.
    public struct Subscription: Sendable, Equatable {
        public var arn: String
        public var protocolName: String
        /// For `sqs`: the queue ARN.
        public var endpoint: String
    }

    /// Publishes `message`; returns SNS's message id. FIFO topics need `groupID` (and `deduplicationID`
    /// unless content-based deduplication is on).
    public func publish(topicARN: String, message: String, groupID: String? = nil, deduplicationID: String? = nil) throws(SQSError) -> String {
        var parameters = [("TopicArn", topicARN), ("Message", message)]
        if let groupID { parameters.append(("MessageGroupId", groupID)) }
        if let deduplicationID { parameters.append(("MessageDeduplicationId", deduplicationID)) }
        return try required("MessageId", in: call("Publish", parameters), action: "Publish")
    }

    /// Creates the topic (or returns the existing one's ARN: CreateTopic is idempotent).
    public func createTopic(name: String, attributes: [String: String] = [:]) throws(SQSError) -> String {
        try required("TopicArn", in: call("CreateTopic", [("Name", name)] + Self.entries("Attributes", attributes)), action: "CreateTopic")
    }

    /// Every topic ARN of the account in this region.
    public func listTopics() throws(SQSError) -> [String] {
        var arns: [String] = []
        var next: String?
        repeat {
            let reply = try call("ListTopics", next.map { [("NextToken", $0)] } ?? [])
            arns += reply.root.all("TopicArn").map(\.text)
            next = Self.nextToken(reply)
        } while next != nil
        return arns
    }

    /// Subscribes `endpoint` (a queue ARN for `sqs`); returns the subscription ARN. Subscribing again with
    /// the same attributes returns the existing subscription.
    public func subscribe(topicARN: String, protocolName: String, endpoint: String, attributes: [String: String] = [:]) throws(SQSError) -> String {
        let parameters = [("TopicArn", topicARN), ("Protocol", protocolName), ("Endpoint", endpoint), ("ReturnSubscriptionArn", "true")]
            + Self.entries("Attributes", attributes)
        return try required("SubscriptionArn", in: call("Subscribe", parameters), action: "Subscribe")
    }

    /// The topic's subscriptions.
    public func listSubscriptions(topicARN: String) throws(SQSError) -> [Subscription] {
        var found: [Subscription] = []
        var next: String?
        repeat {
            let reply = try call("ListSubscriptionsByTopic", [("TopicArn", topicARN)] + (next.map { [("NextToken", $0)] } ?? []))
            for member in reply.root.all("member") {
                guard let arn = member.first("SubscriptionArn")?.text else { continue }
                found.append(Subscription(arn: arn, protocolName: member.first("Protocol")?.text ?? "",
                                          endpoint: member.first("Endpoint")?.text ?? ""))
            }
            next = Self.nextToken(reply)
        } while next != nil
        return found
    }

    /// A subscription's attributes (`RawMessageDelivery`, …).
    public func subscriptionAttributes(arn: String) throws(SQSError) -> [String: String] {
        let reply = try call("GetSubscriptionAttributes", [("SubscriptionArn", arn)])
        var attributes: [String: String] = [:]
        for entry in reply.root.all("entry") {
            if let key = entry.first("key")?.text { attributes[key] = entry.first("value")?.text ?? "" }
        }
        return attributes
    }

    public func setSubscriptionAttribute(arn: String, name: String, value: String) throws(SQSError) {
        _ = try call("SetSubscriptionAttributes", [("SubscriptionArn", arn), ("AttributeName", name), ("AttributeValue", value)])
    }

    // MARK: - Protocol

    /// `Name.entry.N.key` / `Name.entry.N.value` pairs of a map, in key order.
    static func entries(_ name: String, _ map: [String: String]) -> [(String, String)] {
        map.sorted { $0.key < $1.key }.enumerated().flatMap { index, pair in
            [("\(name).entry.\(index + 1).key", pair.key), ("\(name).entry.\(index + 1).value", pair.value)]
        }
    }

    /// A paged list's `NextToken`; nil on the last page.
    private static func nextToken(_ reply: QueryXML) -> String? {
        reply.root.first("NextToken").flatMap { $0.text.isEmpty ? nil : $0.text }
    }

    private func required(_ element: String, in reply: QueryXML, action: String) throws(SQSError) -> String {
        guard let value = reply.root.first(element)?.text, !value.isEmpty else {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "\(action) answer has no \(element)")
        }
        return value
    }

    /// Signs and sends one call; returns the XML answer read, or throws the decoded error (or
    /// `MalformedResponse` when the answer is not well-formed XML).
    func call(_ action: String, _ parameters: [(String, String)]) throws(SQSError) -> QueryXML {
        try SQSClient.requireCrypto()
        let credentials: AWSCredentials
        do {
            credentials = try credentialsProvider.credentials()
        } catch {
            throw SQSError(kind: .auth, code: "CredentialsUnavailable", message: error.message)
        }
        let form = ([("Action", action), ("Version", "2010-03-31")] + parameters)
            .map { "\(URIEncoding.encode($0.0))=\(URIEncoding.encode($0.1))" }.joined(separator: "&")
        let body = Array(form.utf8)
        var headers = [
            HTTPHeader("Host", SQSClient.hostHeader(for: endpoint)),
            HTTPHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
        ]
        let path = endpoint.path.isEmpty ? "/" : endpoint.path
        let signing = SigningRequest(method: "POST", path: path, query: endpoint.query ?? "", headers: headers, body: body)
        headers += SigV4Signer.sign(request: signing, credentials: credentials, region: region, service: "sns", date: Date())
        let response: HTTPResponse
        do {
            response = try transport.send(HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body, responseLimit: .sns),
                                          timeout: SQSClient.shortCallTimeout, cancel: nil)
        } catch {
            throw SQSError(transport: error)
        }
        guard (200..<300).contains(response.status) else {
            let error = ErrorResponseDecoder.decode(response)
            if error.kind == .auth, ["ExpiredToken", "ExpiredTokenException", "RequestExpired"].contains(error.code) {
                credentialsProvider.invalidate()
            }
            throw error
        }
        do {
            return try QueryXML(response.text)
        } catch {
            throw SQSError(kind: .server, code: "MalformedResponse", message: "\(action) answer is \(error.description)")
        }
    }
}

/// Where SNS calls go and in which region.
///
/// `--endpoint-url` first, then the configured overrides every service shares (`ServiceEndpoints`:
/// `AWS_ENDPOINT_URL_SNS`, `AWS_ENDPOINT_URL`, the profile's `[services]` block and `endpoint_url`, all off
/// with `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true`), else `https://sns.REGION.amazonaws.com`.
/// The region is the topic ARN's when one is given.
public enum SNSEndpoint {
    public static func resolve(
        flag: String?, environment: [String: String], region: String, profile: String? = nil
    ) throws(ConfigurationError) -> Provenanced<URL> {
        if let flag, !flag.isEmpty {
            return Provenanced(try ServiceEndpoints.validated(flag, source: "--endpoint-url"), from: "--endpoint-url")
        }
        let files = SharedConfigFiles(environment: environment)
        let name = profile ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        return try ServiceEndpoints(environment: environment, files: files, profile: name).endpoint(for: .sns, region: region)
    }

    /// `arn:aws:sns:eu-west-1:123456789012:timeline` → `eu-west-1`.
    public static func region(ofTopicARN arn: String) -> String? {
        let parts = arn.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 6, parts[0] == "arn", parts[2] == "sns", !parts[3].isEmpty else { return nil }
        return String(parts[3])
    }
}
