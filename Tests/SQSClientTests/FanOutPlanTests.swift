import Foundation
import SQSClient
import TestSupport
import Testing

/// `timeline setup`'s fan-out: what it creates on a first run, that a second run changes nothing, that a
/// dry run writes nothing, and the rules that decide what differs.
@Suite struct FanOutPlanTests {
    static func plan(_ server: MotoServer, topic: String, queue: String, dryRun: Bool,
                     lines: Locked<[String]>) -> FanOutPlan {
        FanOutPlan(sns: SNSClient(endpoint: server.endpoint, region: TestClients.region,
                                  credentials: StaticCredentialsProvider(TestClients.credentials)),
                   sqs: TestClients.client(server), topicName: topic, queueName: queue, dryRun: dryRun,
                   report: { line in lines.withValue { $0.append(line) } })
    }

    @Test func aSecondRunChangesNothingAndADryRunWritesNothing() throws {
        let server = try MotoServer.shared
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let lines = Locked<[String]>([])
        let dry = try Self.plan(server, topic: "t-\(suffix)", queue: "v-\(suffix)", dryRun: true, lines: lines).run()
        #expect(dry.topicARN.contains("ACCOUNT_ID") && lines.withValue { $0 }.allSatisfy { $0.contains("would") })
        #expect(throws: SQSError.self) { _ = try TestClients.client(server).getQueueURL(name: "v-\(suffix)") }

        lines.withValue { $0 = [] }
        let first = try Self.plan(server, topic: "t-\(suffix)", queue: "v-\(suffix)", dryRun: false, lines: lines).run()
        #expect(lines.withValue { $0 }.filter { $0.contains("(created") }.count == 4, "\(lines.withValue { $0 })")
        lines.withValue { $0 = [] }
        let second = try Self.plan(server, topic: "t-\(suffix)", queue: "v-\(suffix)", dryRun: false, lines: lines).run()
        #expect(second == first)
        #expect(lines.withValue { $0 }.allSatisfy { $0.contains("(exists") }, "\(lines.withValue { $0 })")
    }

    @Test func theQueuePolicyLetsOnlyTheTopicSend() {
        let topic = "arn:aws:sns:us-east-1:123456789012:t", queue = "arn:aws:sqs:us-east-1:123456789012:v"
        let policy = FanOutPlan.policy(queueARN: queue, topicARN: topic)
        #expect(FanOutPlan.policyAllows(policy, topicARN: topic, queueARN: queue))
        #expect(!FanOutPlan.policyAllows(policy, topicARN: topic + "-other", queueARN: queue))
        #expect(!FanOutPlan.policyAllows(nil, topicARN: topic, queueARN: queue))
        #expect(!FanOutPlan.policyAllows(policy.replacingOccurrences(of: "Allow", with: "Deny"), topicARN: topic, queueARN: queue))
    }

    @Test func attributesCompareByContent() {
        #expect(FanOutPlan.sameAttribute("RedrivePolicy", #"{"maxReceiveCount":5,"deadLetterTargetArn":"a"}"#,
                                         #"{"deadLetterTargetArn":"a","maxReceiveCount":"5"}"#))
        #expect(!FanOutPlan.sameAttribute("RedrivePolicy", #"{"deadLetterTargetArn":"b","maxReceiveCount":"5"}"#,
                                          #"{"deadLetterTargetArn":"a","maxReceiveCount":"5"}"#))
        #expect(!FanOutPlan.sameAttribute("MessageRetentionPeriod", nil, "1209600"))
    }
}
