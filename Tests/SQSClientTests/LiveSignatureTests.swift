import TestSupport
import Foundation
import SQSClient
import Testing

/// moto with `INITIAL_NO_AUTH_ACTION_COUNT=3` verifies every request after the first three like AWS
/// does. The three free requests (boto3) create an IAM user, an access key and an `sqs:*` policy.
@Suite struct LiveSignatureTests {
    static let setupScript = #"""
import json, sys, boto3
iam = boto3.client("iam", endpoint_url=sys.argv[1], region_name="us-east-1",
                   aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
iam.create_user(UserName="timeline-test")
key = iam.create_access_key(UserName="timeline-test")["AccessKey"]
iam.put_user_policy(UserName="timeline-test", PolicyName="sqs-all", PolicyDocument=json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": "sqs:*", "Resource": "*"}]}))
print(json.dumps({"id": key["AccessKeyId"], "secret": key["SecretAccessKey"]}))
"""#

    @Test func realKeyWorksAndWrongSecretIsRejected() throws {
        let server = try MotoServer.start(environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "3"])
        defer { server.stop() }
        let output = try PythonRunner.run(Self.setupScript, arguments: [server.endpoint.absoluteString])
        let key = try #require(try JSONSerialization.jsonObject(with: output) as? [String: String])
        let accessKeyID = try #require(key["id"])
        let secret = try #require(key["secret"])

        let good = SQSClient(
            endpoint: server.endpoint, region: "us-east-1",
            credentials: StaticCredentialsProvider(AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: secret)))
        let queue = try good.createQueue(name: "signed-\(UUID().uuidString.prefix(6).lowercased())")
        _ = try good.sendMessage(queueURL: queue, body: "signed body ✓ with spaces & symbols")
        let received = try good.receiveMessage(queueURL: queue, waitSeconds: 1)
        #expect(received.map(\.body) == ["signed body ✓ with spaces & symbols"])

        let wrongSecret = "wrong-\(secret.dropFirst(6))"
        let bad = SQSClient(
            endpoint: server.endpoint, region: "us-east-1",
            credentials: StaticCredentialsProvider(AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: wrongSecret)))
        do {
            _ = try bad.sendMessage(queueURL: queue, body: "should be refused")
            Issue.record("a request signed with the wrong secret was accepted")
        } catch {
            #expect(error.kind == .auth)
            #expect(error.code == "SignatureDoesNotMatch")
            #expect(!error.isRetryable)
            #expect(!"\(error)".contains(wrongSecret))
            #expect(!"\(error)".contains(secret))
        }

        let unknown = SQSClient(
            endpoint: server.endpoint, region: "us-east-1",
            credentials: StaticCredentialsProvider(AWSCredentials(accessKeyID: "AKIANOTAREALKEY00000", secretAccessKey: secret)))
        do {
            _ = try unknown.getQueueAttributes(queueURL: queue)
            Issue.record("an unknown access key was accepted")
        } catch {
            #expect(error.kind == .auth, "got \(error.kind): \(error)")
        }
    }
}
