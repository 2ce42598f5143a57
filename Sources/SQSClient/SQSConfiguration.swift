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
    /// Where the other services are (STS, SNS, SSO, SSO-OIDC): `endpoints.endpoint(for: .sns, region: region.value)`.
    public var endpoints: ServiceEndpoints

    /// Resolves every setting; throws one message per missing piece saying where it looked.
    /// `file` holds a config file's settings (named `fileSource` in provenance): each applies after the
    /// flags and the environment, before derived values and defaults.
    public static func resolve(flags: Flags, environment: [String: String], file: Flags = Flags(),
                               fileSource: String = "config file") throws(ConfigurationError) -> SQSConfiguration {
        func nonEmpty(_ value: String?) -> String? {
            guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        let selected = CredentialChain.selectProfile(
            flag: nonEmpty(flags.profile), environment: environment, fileProfile: nonEmpty(file.profile), fileSource: fileSource)
        let profile = Provenanced(selected.name, from: selected.source)
        let files = SharedConfigFiles(environment: environment)
        let endpoints = ServiceEndpoints(environment: environment, files: files, profile: selected.name)

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

        // The endpoint a user set (flag, then the standard overrides) comes before the region: a local
        // endpoint needs no real region.
        var configuredEndpoint: Provenanced<URL>?
        if let text = nonEmpty(flags.endpointURL) {
            configuredEndpoint = Provenanced(try ServiceEndpoints.validated(text, source: "--endpoint-url"), from: "--endpoint-url")
        } else {
            // flag > environment > config file > the AWS profile's own endpoint settings
            let standard = try endpoints.configuredEndpoint(for: .sqs)
            if let standard, standard.source.hasPrefix("AWS_ENDPOINT_URL") {
                configuredEndpoint = standard
            } else if let text = nonEmpty(file.endpointURL) {
                configuredEndpoint = Provenanced(try ServiceEndpoints.validated(text, source: fileSource), from: fileSource)
            } else {
                configuredEndpoint = standard
            }
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
        } else if let value = CredentialChain.profileRegion(files: files, profile: selected.name) {
            region = Provenanced(value.region, from: "profile \"\(selected.name)\" in \(value.path)")
        } else if let local = (configuredEndpoint?.value ?? queueURL).flatMap({ ServiceEndpoints.isLocal($0) ? $0 : nil }) {
            // As publish_event.py: a local server accepts any region.
            region = Provenanced(Self.localDefaultRegion, from: "default for the local endpoint \(local.host ?? "")")
        } else {
            throw ConfigurationError(
                "No AWS region. Looked at --region, AWS_REGION, AWS_DEFAULT_REGION, \(fileSource), the queue URL's host, "
                + "and `region` of profile \"\(selected.name)\" in \(files.configPath).\n"
                + "Fix: pass --region REGION (e.g. us-east-1) or export AWS_REGION=REGION.")
        }

        let endpoint: Provenanced<URL>
        if let configuredEndpoint {
            endpoint = configuredEndpoint
        } else if let queueURL, let origin = origin(of: queueURL) {
            endpoint = Provenanced(origin, from: "queue URL")
        } else {
            endpoint = Provenanced(AWSService.sqs.defaultEndpoint(region: region.value), from: "region \(region.value)")
        }
        let chain = CredentialChain(
            environment: environment, profile: nonEmpty(flags.profile), fileProfile: nonEmpty(file.profile),
            fileSource: fileSource, region: region.value)
        return SQSConfiguration(
            region: region, queue: queue, endpoint: endpoint, profile: profile, credentials: chain, endpoints: endpoints)
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

    /// Why requests cannot reach the queue as configured: its URL names an AWS region other than the one
    /// requests are signed for, or than the one of the AWS endpoint they go to (nil when they agree, or
    /// when the queue or the endpoint is not on AWS).
    public var regionConflict: String? {
        guard case .url(let text) = queue.value, let url = URL(string: text),
              let queueRegion = Self.regionFromQueueHost(url) else { return nil }
        if let endpointRegion = Self.regionFromQueueHost(endpoint.value), endpointRegion != queueRegion {
            return "the queue is in \(queueRegion) but requests go to the \(endpointRegion) endpoint "
                + "(\(endpoint.value.absoluteString), from \(endpoint.source)): point the endpoint at \(queueRegion) or remove it"
        }
        if region.value != queueRegion {
            return "the queue is in \(queueRegion) but requests are signed for \(region.value) (from \(region.source)): "
                + "use --region \(queueRegion), or change or unset that setting"
        }
        return nil
    }

    /// The region used for a local endpoint when none is set (as `publish_event.py`).
    public static let localDefaultRegion = "us-east-1"
}

/// A setting is missing or malformed; the message says where it looked and how to fix it.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
