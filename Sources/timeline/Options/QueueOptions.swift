import ArgumentParser
import Foundation
import Ingest
import SQSClient

/// Region, endpoint and profile: the AWS options of every command that signs requests (the queue
/// commands through `QueueOptions`, `reply` for the reply queues).
struct AWSOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "AWS region (default: $AWS_REGION, $AWS_DEFAULT_REGION, the queue URL's host, the profile).",
        valueName: "region"))
    var region: String?

    @Option(name: .customLong("endpoint-url"), help: ArgumentHelp(
        "SQS endpoint, e.g. a local server (default: $AWS_ENDPOINT_URL_SQS, $AWS_ENDPOINT_URL, the queue URL).",
        valueName: "url"))
    var endpointURL: String?

    @Option(help: ArgumentHelp("AWS profile (default: $AWS_PROFILE, else default).", valueName: "name"))
    var profile: String?
}

/// The queue options shared by every command that polls or publishes, with the AWS options.
/// Each falls back to the standard AWS environment (see `SQSConfiguration.resolve`).
struct QueueOptions: ParsableArguments {
    @Option(name: .customLong("queue-url"), help: ArgumentHelp(
        "Queue URL (default: $TIMELINE_QUEUE_URL). Repeat to poll several queues.", valueName: "url"))
    var queueURLs: [String] = []

    @Option(name: .customLong("queue"), help: ArgumentHelp(
        "Queue name, looked up with GetQueueUrl (default: $TIMELINE_QUEUE).", valueName: "name"))
    var queueName: String?

    @OptionGroup var aws: AWSOptions

    var region: String? { aws.region }
    var endpointURL: String? { aws.endpointURL }
    var profile: String? { aws.profile }

    /// Resolves every setting from flags, environment, the config file and the AWS files; one clear error otherwise.
    func configuration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SQSConfiguration {
        try Self.configuration(
            flags: .init(region: region, queueURL: queueURLs.first, queueName: queueName, endpointURL: endpointURL,
                         profile: profile),
            environment: environment)
    }

    /// The configuration `flags` give with the environment and the config file under them (what `hook`
    /// uses with no flags, without parsing any).
    static func configuration(flags: SQSConfiguration.Flags, environment: [String: String]) throws -> SQSConfiguration {
        let file = try UserConfig.file()
        return try SQSConfiguration.resolve(
            flags: flags,
            environment: environment,
            file: .init(region: file.string("region"), queueURL: (file.values["queue_urls"] ?? file.values["queue_url"])?.first,
                        queueName: file.string("queue"), endpointURL: file.string("endpoint_url"),
                        profile: file.string("profile")),
            fileSource: "config file \(file.path)")
    }

    /// Queue URLs beyond the first: `--queue-url` repeated, else (when no flag or environment names a queue)
    /// the rest of the config file's `queue_urls`.
    func extraQueueURLs(after configuration: SQSConfiguration) throws -> [String] {
        if !queueURLs.isEmpty { return Array(queueURLs.dropFirst()) }
        guard configuration.queue.source.hasPrefix("config file") else { return [] }
        return Array((try UserConfig.file().values["queue_urls"] ?? []).dropFirst())
    }
}

extension QueueOptions {
    /// The client and queue URLs to poll; a queue name is looked up with GetQueueUrl (a network call).
    /// `resolved`: settings already resolved (credentials asked before the TUI draws), else from the options.
    func pollerTarget(resolved: SQSConfiguration? = nil) throws -> PollerTarget {
        let configuration = try resolved ?? self.configuration()
        let client = configuration.makeClient()
        let first = try configuration.queueURL(using: client).value
        return PollerTarget(client: client, queueURLs: [first] + (try extraQueueURLs(after: configuration)))
    }
}
