import Foundation
import ReplyDelivery
import StrictJSON
import Testing

/// The reply queue policy: only the named principals may send.
@Suite struct ReplyQueuePolicyTests {
    static let queueARN = "arn:aws:sqs:eu-west-1:123456789012:agent-replies"

    @Test func allowsTheSendersAndDeniesEveryoneElse() throws {
        let senders = ["arn:aws:iam::123456789012:user/alice", "arn:aws:iam::210987654321:role/viewer"]
        let text = ReplyQueueAccessPolicy.document(queueARN: Self.queueARN, senders: senders)
        let document = try #require(JSONReader.object(from: Array(text.utf8)))
        let statements = try #require(document["Statement"] as? [[String: Any]])
        #expect(statements.count == 2)
        let allow = statements[0], deny = statements[1]
        #expect(allow["Effect"] as? String == "Allow" && allow["Action"] as? String == "sqs:SendMessage")
        #expect((allow["Principal"] as? [String: Any])?["AWS"] as? [String] == senders)
        #expect(allow["Resource"] as? String == Self.queueARN && deny["Resource"] as? String == Self.queueARN)
        #expect(deny["Effect"] as? String == "Deny" && deny["Principal"] as? String == "*")
        #expect(deny["Action"] as? String == "sqs:SendMessage")
        let condition = (deny["Condition"] as? [String: Any])?["ArnNotEquals"] as? [String: Any]
        #expect(condition?["aws:PrincipalArn"] as? [String] == senders)
        #expect(ReplyQueueAccessPolicy.senders(in: text) == senders)
    }

    @Test func readsBackAsAWSRewritesIt() {
        // AWS returns a one-element list as a string, with its own spacing.
        let rewritten = """
            {"Version": "2012-10-17", "Statement": [{"Sid": "timeline-reply-senders", "Effect": "Allow",
             "Principal": {"AWS": "arn:aws:iam::123456789012:user/alice"}, "Action": "sqs:SendMessage", "Resource": "x"},
             {"Sid": "timeline-only-reply-senders", "Effect": "Deny", "Principal": "*", "Action": "sqs:SendMessage",
              "Resource": "x", "Condition": {"ArnNotEquals": {"aws:PrincipalArn": "arn:aws:iam::123456789012:user/alice"}}}]}
            """
        #expect(ReplyQueueAccessPolicy.senders(in: rewritten) == ["arn:aws:iam::123456789012:user/alice"])
        #expect(ReplyQueueAccessPolicy.senders(in: nil) == nil)
        #expect(ReplyQueueAccessPolicy.senders(in: #"{"Statement":[{"Sid":"timeline-reply-senders","Effect":"Allow","Principal":{"AWS":"a"}}]}"#) == nil,
                "an Allow without the Deny does not restrict senders within the account")
    }

    @Test func principals() throws {
        #expect(try ReplyQueueAccessPolicy.principal("arn:aws:iam::123456789012:user/alice") == "arn:aws:iam::123456789012:user/alice")
        #expect(try ReplyQueueAccessPolicy.principal("arn:aws:iam::123456789012:role/ops/viewer") == "arn:aws:iam::123456789012:role/ops/viewer")
        #expect(try ReplyQueueAccessPolicy.principal("arn:aws:sts::123456789012:assumed-role/viewer/alice")
                == "arn:aws:iam::123456789012:role/viewer")
        for bad in ["alice", "arn:aws:iam::123456789012:root", "arn:aws:iam::12345:user/alice", "arn:aws:s3:::bucket",
                    "AIDAEXAMPLE", "arn:aws:iam::123456789012:group/admins"] {
            #expect(throws: ReplyQueueAccessPolicy.Problem.self, "\(bad)") { try ReplyQueueAccessPolicy.principal(bad) }
        }
    }
}
