import Foundation
import SQSClient

/// Publishing to an SNS topic (fan-out to one queue per viewer): which topic, and a client for it.
enum TopicTarget {
    /// `--topic-arn`, else `TIMELINE_TOPIC_ARN` unless a queue was named on the command line.
    static func topicARN(flag: String?, queue: QueueOptions, environment: [String: String]) -> String? {
        if let flag, !flag.isEmpty { return flag }
        guard queue.queueURLs.isEmpty, queue.queueName == nil,
              let topic = environment["TIMELINE_TOPIC_ARN"], !topic.isEmpty
        else { return nil }
        return topic
    }

    /// An SNS client for the topic's region (from its ARN, else the usual region settings).
    static func client(topicARN: String, queue: QueueOptions, environment: [String: String]) throws -> SNSClient {
        guard topicARN.hasPrefix("arn:") else {
            throw ConfigurationError("The topic must be an ARN (arn:aws:sns:REGION:ACCOUNT_ID:NAME), got: \(topicARN)")
        }
        let chain = CredentialChain(environment: environment, profile: queue.profile)
        let candidates = [queue.region, SNSEndpoint.region(ofTopicARN: topicARN), environment["AWS_REGION"],
                          environment["AWS_DEFAULT_REGION"], chain.profileRegion()?.region]
        guard let region = candidates.compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw ConfigurationError("No AWS region: pass --region or use a topic ARN that names one.")
        }
        let endpoint = try SNSEndpoint.resolve(flag: queue.endpointURL, environment: environment, region: region, profile: queue.profile)
        return SNSClient(endpoint: endpoint.value, region: region, credentials: chain)
    }
}
