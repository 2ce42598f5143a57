import Foundation

/// A resolved setting and where it came from (shown by `timeline doctor`).
public struct Provenanced<Value: Sendable>: Sendable {
    public var value: Value
    /// E.g. `--region`, `AWS_REGION`, `profile "dev" in /home/me/.aws/config`, `queue URL host`.
    public var source: String

    public init(_ value: Value, from source: String) {
        self.value = value
        self.source = source
    }
}

/// Which queue to use: a URL, or a name still to be looked up with GetQueueUrl.
public enum QueueReference: Sendable, Equatable {
    case url(String)
    case name(String)
}

/// Resolves region, queue, endpoint and credentials from flags, environment and the AWS files.
/// Plain values: the command-line layer maps its options onto `Flags`.
public struct SQSConfiguration: Sendable {
    /// What the user passed on the command line (nil when absent).
    public struct Flags: Sendable {
        public var region: String?
        public var queueURL: String?
        public var queueName: String?
        public var endpointURL: String?
        public var profile: String?

        public init(region: String? = nil, queueURL: String? = nil, queueName: String? = nil, endpointURL: String? = nil, profile: String? = nil) {
            self.region = region
            self.queueURL = queueURL
            self.queueName = queueName
            self.endpointURL = endpointURL
            self.profile = profile
        }
    }

    public var region: Provenanced<String>
    public var queue: Provenanced<QueueReference>
    public var endpoint: Provenanced<URL>
    /// The profile the credential chain reads when the environment has no keys.
    public var profile: Provenanced<String>
    /// Resolves (and caches) credentials on first use.
    public var credentials: CredentialChain

    /// Resolves every setting; throws one message per missing piece saying where it looked.
    /// `file` holds a config file's settings (named `fileSource` in provenance): each applies after the
    /// flags and the environment, before derived values and defaults.
    public static func resolve(flags: Flags, environment: [String: String], file: Flags = Flags(),
                               fileSource: String = "config file") throws(ConfigurationError) -> SQSConfiguration {
        func nonEmpty(_ value: String?) -> String? {
            guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let chain = CredentialChain(environment: environment, profile: nonEmpty(flags.profile),
                                    fileProfile: nonEmpty(file.profile), fileSource: fileSource)
        let profile = Provenanced(chain.profile, from: chain.profileSource)

        let queue: Provenanced<QueueReference>
        if let url = nonEmpty(flags.queueURL) {
            queue = Provenanced(.url(url), from: "--queue-url")
        } else if let url = nonEmpty(environment["TIMELINE_QUEUE_URL"]) {
            queue = Provenanced(.url(url), from: "TIMELINE_QUEUE_URL")
        } else if let name = nonEmpty(flags.queueName) {
            queue = Provenanced(.name(name), from: "--queue")
        } else if let name = nonEmpty(environment["TIMELINE_QUEUE"]) {
            queue = Provenanced(.name(name), from: "TIMELINE_QUEUE")
        } else if let url = nonEmpty(file.queueURL) {
            queue = Provenanced(.url(url), from: fileSource)
        } else if let name = nonEmpty(file.queueName) {
            queue = Provenanced(.name(name), from: fileSource)
        } else {
            throw ConfigurationError(
                "No queue given. Looked at --queue-url, TIMELINE_QUEUE_URL, --queue, TIMELINE_QUEUE and \(fileSource).\n"
                + "Fix: pass --queue-url https://sqs.REGION.amazonaws.com/ACCOUNT/NAME (or --queue NAME), or export TIMELINE_QUEUE_URL.")
        }
        var queueURL: URL?
        if case .url(let text) = queue.value {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else {
                throw ConfigurationError("The queue URL from \(queue.source) is not an http(s) URL: \(text)")
            }
            queueURL = url
        }

        let region: Provenanced<String>
        if let value = nonEmpty(flags.region) {
            region = Provenanced(value, from: "--region")
        } else if let value = nonEmpty(environment["AWS_REGION"]) {
            region = Provenanced(value, from: "AWS_REGION")
        } else if let value = nonEmpty(environment["AWS_DEFAULT_REGION"]) {
            region = Provenanced(value, from: "AWS_DEFAULT_REGION")
        } else if let value = nonEmpty(file.region) {
            region = Provenanced(value, from: fileSource)
        } else if let value = queueURL.flatMap(regionFromQueueHost) {
            // Before the profile's default region: a queue URL names the region the queue lives in.
            region = Provenanced(value, from: "queue URL host")
        } else if let value = chain.profileRegion() {
            region = Provenanced(value.region, from: "profile \"\(chain.profile)\" in \(value.path)")
        } else {
            let files = SharedConfigFiles(environment: environment)
            throw ConfigurationError(
                "No AWS region. Looked at --region, AWS_REGION, AWS_DEFAULT_REGION, \(fileSource), the queue URL's host, "
                + "and `region` of profile \"\(chain.profile)\" in \(files.configPath).\n"
                + "Fix: pass --region REGION (e.g. us-east-1) or export AWS_REGION=REGION.")
        }

        let endpoint: Provenanced<URL>
        if let text = nonEmpty(flags.endpointURL) {
            endpoint = Provenanced(try endpointURL(text, source: "--endpoint-url"), from: "--endpoint-url")
        } else if let text = nonEmpty(environment["AWS_ENDPOINT_URL_SQS"]) {
            endpoint = Provenanced(try endpointURL(text, source: "AWS_ENDPOINT_URL_SQS"), from: "AWS_ENDPOINT_URL_SQS")
        } else if let text = nonEmpty(environment["AWS_ENDPOINT_URL"]) {
            endpoint = Provenanced(try endpointURL(text, source: "AWS_ENDPOINT_URL"), from: "AWS_ENDPOINT_URL")
        } else if let text = nonEmpty(file.endpointURL) {
            endpoint = Provenanced(try endpointURL(text, source: fileSource), from: fileSource)
        } else if let queueURL, let origin = origin(of: queueURL) {
            endpoint = Provenanced(origin, from: "queue URL")
        } else {
            let suffix = region.value.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
            endpoint = Provenanced(URL(string: "https://sqs.\(region.value).\(suffix)")!, from: "region \(region.value)")
        }
        return SQSConfiguration(region: region, queue: queue, endpoint: endpoint, profile: profile, credentials: chain)
    }

    /// A client for the resolved endpoint, region and credentials.
    public func makeClient(transport: any HTTPTransport = CurlTransport()) -> SQSClient {
        SQSClient(endpoint: endpoint.value, region: region.value, credentials: credentials, transport: transport)
    }

    /// The queue URL, looking a queue name up with GetQueueUrl when needed.
    public func queueURL(using client: SQSClient) throws(SQSError) -> Provenanced<String> {
        switch queue.value {
        case .url(let url):
            return Provenanced(url, from: queue.source)
        case .name(let name):
            return Provenanced(try client.getQueueURL(name: name), from: "GetQueueUrl(\(name)) from \(queue.source)")
        }
    }

    /// `sqs.eu-west-1.amazonaws.com` or `eu-west-1.queue.amazonaws.com` → `eu-west-1`.
    public static func regionFromQueueHost(_ url: URL) -> String? {
        guard let host = url.host?.lowercased() else { return nil }
        let labels = host.split(separator: ".").map(String.init)
        guard let amazon = labels.firstIndex(of: "amazonaws") else { return nil }
        if amazon >= 2, labels[amazon - 2] == "sqs" { return labels[amazon - 1] }
        if amazon >= 2, labels[amazon - 1] == "queue" { return labels[amazon - 2] }
        return nil
    }

    /// `scheme://host[:port]` of a URL.
    static func origin(of url: URL) -> URL? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(scheme)://\(hostPart)\(url.port.map { ":\($0)" } ?? "")")
    }

    static func endpointURL(_ text: String, source: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else {
            throw ConfigurationError("The endpoint from \(source) is not an http(s) URL: \(text)")
        }
        return url
    }
}

/// A setting is missing or malformed; the message says where it looked and how to fix it.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
