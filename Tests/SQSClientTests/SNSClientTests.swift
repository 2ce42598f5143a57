import Foundation
import SQSClient
import TestSupport
import Testing
@testable import SQSClient

@Suite struct SNSClientTests {
    private func sns(_ server: MotoServer) -> SNSClient {
        SNSClient(endpoint: server.endpoint, region: TestClients.region,
                  credentials: StaticCredentialsProvider(TestClients.credentials))
    }

    /// Topic, raw subscription and Publish through our own query-protocol client; moto delivers to SQS.
    @Test func publishFansOutToASubscribedQueue() throws {
        let server = try MotoServer.shared
        let sqs = TestClients.client(server)
        let sns = sns(server)
        let name = "fan-\(UUID().uuidString.prefix(8).lowercased())"
        let topic = try sns.createTopic(name: name)
        #expect(topic.hasSuffix(":\(name)") && topic.hasPrefix("arn:aws:sns:us-east-1:"))
        #expect(try sns.createTopic(name: name) == topic, "CreateTopic is idempotent")
        #expect(try sns.listTopics().contains(topic))

        let queue = try TestClients.freshQueue(sqs, prefix: "sub")
        let queueARN = try #require(try sqs.getQueueAttributes(queueURL: queue, names: ["QueueArn"])["QueueArn"])
        let subscription = try sns.subscribe(topicARN: topic, protocolName: "sqs", endpoint: queueARN,
                                             attributes: ["RawMessageDelivery": "true"])
        let listed = try sns.listSubscriptions(topicARN: topic)
        #expect(listed == [SNSClient.Subscription(arn: subscription, protocolName: "sqs", endpoint: queueARN)])
        #expect(try sns.subscriptionAttributes(arn: subscription)["RawMessageDelivery"] == "true")

        // Characters that need form encoding and XML escaping both ways.
        let message = #"{"title":"a & b < c > d \"q\" ü ✓ + = % / ?"}"#
        let id = try sns.publish(topicARN: topic, message: message)
        #expect(!id.isEmpty)
        let received = try sqs.receiveMessage(queueURL: queue, waitSeconds: 2)
        #expect(received.map(\.body) == [message])

        try sns.setSubscriptionAttribute(arn: subscription, name: "RawMessageDelivery", value: "false")
        #expect(try sns.subscriptionAttributes(arn: subscription)["RawMessageDelivery"] == "false")
    }

    @Test func errorsAreDecodedFromXML() throws {
        let sns = sns(try MotoServer.shared)
        #expect(throws: SQSError.self) {
            _ = try sns.publish(topicARN: "arn:aws:sns:us-east-1:123456789012:no-such-topic", message: "x")
        }
        do {
            _ = try sns.publish(topicARN: "arn:aws:sns:us-east-1:123456789012:no-such-topic", message: "x")
        } catch {
            #expect(error.code == "NotFound")
            #expect(error.kind == .client)
        }
    }

    @Test func fifoKeysKeepValidIDsAndHashTheRest() {
        #expect(FIFOKeys.key("deploy-42/step:1") == "deploy-42/step:1")
        let hashed = FIFOKeys.key("tâche")
        #expect(hashed.count == 64 && hashed.allSatisfy(\.isHexDigit))
        #expect(FIFOKeys.key("tâche") == hashed)
        #expect(FIFOKeys.key(String(repeating: "a", count: 128)).count == 128)
        #expect(FIFOKeys.key(String(repeating: "a", count: 129)).count == 64)
        #expect(FIFOKeys.key("has space") != "has space")
        #expect(FIFOKeys.isFIFO("https://sqs.eu-west-1.amazonaws.com/1/q.fifo") && !FIFOKeys.isFIFO("arn:aws:sns:x:1:t"))
    }

    @Test func snsEndpointOverridesAndTopicRegion() throws {
        #expect(try SNSEndpoint.resolve(flag: nil, environment: [:], region: "eu-west-1").value.absoluteString
                == "https://sns.eu-west-1.amazonaws.com")
        let env = ["AWS_ENDPOINT_URL_SNS": "http://127.0.0.1:1", "AWS_ENDPOINT_URL": "http://127.0.0.1:2"]
        #expect(try SNSEndpoint.resolve(flag: nil, environment: env, region: "x").source == "AWS_ENDPOINT_URL_SNS")
        #expect(try SNSEndpoint.resolve(flag: "http://h:3", environment: env, region: "x").source == "--endpoint-url")
        #expect(try SNSEndpoint.resolve(flag: nil, environment: env.merging(["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"]) { $1 },
                                        region: "x").source == "region x")
        #expect(SNSEndpoint.region(ofTopicARN: "arn:aws:sns:ap-south-1:123456789012:t") == "ap-south-1")
        #expect(SNSEndpoint.region(ofTopicARN: "timeline") == nil)
    }
}
