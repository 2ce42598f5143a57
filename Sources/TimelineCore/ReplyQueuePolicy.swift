/// Where the viewer may send a signed reply: the one rule deciding which `reply_to` queue URLs get the
/// viewer's credentials. A reply is signed only for an AWS SQS host of the viewer's own partition
/// (`sqs.REGION.amazonaws.com`, `REGION.queue.amazonaws.com`, and their China form `….amazonaws.com.cn`)
/// or for the SQS endpoint the user configured (`--endpoint-url`, `AWS_ENDPOINT_URL_SQS`, `AWS_ENDPOINT_URL`,
/// the profile's `endpoint_url`). Any other host is refused before anything is signed, with the reason.
/// With an endpoint configured, every request goes to that endpoint (the queue URL travels in the body).
///
/// Usage: `ReplyQueuePolicy(viewerRegion: "eu-west-1", configuredEndpoint: nil).target(for: url)`.
public struct ReplyQueuePolicy: Sendable, Equatable {
    /// An AWS partition: which regions and host suffixes belong together.
    public enum Partition: String, Sendable, Equatable {
        case aws, awsChina = "aws-cn", awsGovCloud = "aws-us-gov"

        /// The partition of a region name; nil for one timeline does not know (ISO partitions, typos).
        public static func of(region: String) -> Partition? {
            guard isRegionName(region) else { return nil }
            if region.hasPrefix("cn-") { return .awsChina }
            if region.hasPrefix("us-gov-") { return .awsGovCloud }
            if region.hasPrefix("us-iso") { return nil }
            return .aws
        }

        /// The DNS suffix of its SQS hosts.
        var dnsSuffix: String { self == .awsChina ? "amazonaws.com.cn" : "amazonaws.com" }

        /// `eu-west-1`, `us-gov-west-1`, `cn-north-1`: lower-case letters and dashes, then a number.
        static func isRegionName(_ text: String) -> Bool {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 3, let last = parts.last, !last.isEmpty, last.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return false
            }
            return parts.dropLast().allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLowercase } }
        }
    }

    /// Where a reply is signed and sent, for the confirmation and the client.
    public struct Target: Sendable, Equatable {
        /// The origin the request goes to (`https://sqs.eu-west-1.amazonaws.com`, the configured endpoint).
        public var endpoint: String
        /// `host[:port]` of `endpoint`, as the confirmation names it.
        public var host: String
        /// The 12-digit account of the queue URL.
        public var account: String
        /// The queue's name.
        public var queueName: String
        /// The region of an AWS queue host (signs the request); nil for a configured endpoint.
        public var region: String?
    }

    /// The viewer's partition (from its region; `aws` when it has none).
    public var partition: Partition?
    /// The SQS endpoint the user configured (its origin), if any.
    public var configuredEndpoint: String?

    /// `viewerRegion`: the region the viewer's own settings name (nil: none, the `aws` partition).
    /// `configuredEndpoint`: the SQS endpoint URL the user configured, if any.
    public init(viewerRegion: String? = nil, configuredEndpoint: String? = nil) {
        partition = viewerRegion.map { Partition.of(region: $0) } ?? .aws
        self.configuredEndpoint = configuredEndpoint.flatMap(Self.origin)
    }

    /// Where a reply to `queueURL` goes, or why it may not be sent.
    public func target(for queueURL: String) -> Result<Target, ReplyQueueRefusal> {
        guard QueueURLShape.isQueueURL(queueURL), let origin = Self.origin(queueURL), let parts = WebURL.split(queueURL) else {
            return .failure(ReplyQueueRefusal("reply_to is not an SQS queue URL"))
        }
        let segments = parts.path.split(separator: "/")
        let account = String(segments[0]), name = String(segments[1])
        if let configured = configuredEndpoint {
            guard origin == configured || awsRegion(ofHost: parts.host, scheme: parts.scheme, origin: origin) != nil else {
                return .failure(ReplyQueueRefusal(
                    "reply_to names host \(Self.authority(origin)), which is neither an AWS SQS host nor the configured endpoint \(Self.authority(configured)): nothing was signed or sent"))
            }
            return .success(Target(endpoint: configured, host: Self.authority(configured), account: account, queueName: name, region: nil))
        }
        guard let region = awsRegion(ofHost: parts.host, scheme: parts.scheme, origin: origin) else {
            let own = partition.map { "of the \($0.rawValue) partition" } ?? "of a known partition"
            return .failure(ReplyQueueRefusal(
                "reply_to names host \(Self.authority(origin)), not an AWS SQS host \(own) and no endpoint is configured (--endpoint-url, AWS_ENDPOINT_URL_SQS): nothing was signed or sent"))
        }
        return .success(Target(endpoint: origin, host: parts.host, account: account, queueName: name, region: region))
    }

    /// The region of `sqs.REGION.SUFFIX` or `REGION.queue.SUFFIX` over https on the default port, when
    /// REGION is in the viewer's partition; nil otherwise.
    private func awsRegion(ofHost host: String, scheme: String, origin: String) -> String? {
        guard let partition, scheme == "https", origin == "https://\(host)" else { return nil }
        let suffix = "." + partition.dnsSuffix
        guard host.hasSuffix(suffix) else { return nil }
        let labels = host.dropLast(suffix.count).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard labels.count == 2 else { return nil }
        let region = labels[0] == "sqs" ? labels[1] : labels[1] == "queue" ? labels[0] : nil
        guard let region, Partition.of(region: region) == partition else { return nil }
        return region
    }

    /// `host[:port]` and account of a queue URL (the default port dropped); nil when it is not one.
    public static func location(of queueURL: String) -> (host: String, account: String)? {
        guard QueueURLShape.isQueueURL(queueURL), let origin = origin(queueURL), let parts = WebURL.split(queueURL),
              let account = parts.path.split(separator: "/").first else { return nil }
        return (authority(origin), String(account))
    }

    /// `scheme://host[:port]` of an http(s) URL, lower-case, the default port dropped; nil when malformed.
    static func origin(_ url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") { scheme = "https" } else if lowered.hasPrefix("http://") { scheme = "http" } else { return nil }
        let rest = lowered.dropFirst(scheme.count + 3)
        var authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.isEmpty, !authority.contains("@"),
              authority.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) { authority = String(authority.dropLast(defaultPort.count)) }
        return "\(scheme)://\(authority)"
    }

    /// `host[:port]` of an origin.
    static func authority(_ origin: String) -> String {
        String(origin.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).last ?? Substring(origin))
    }
}

/// Why a reply may not go to a `reply_to` queue (shown to the user; nothing was signed or sent).
public struct ReplyQueueRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
