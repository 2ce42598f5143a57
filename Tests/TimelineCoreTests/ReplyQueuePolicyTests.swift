import Testing
@testable import TimelineCore

/// Which `reply_to` queues get the viewer's signature: AWS SQS hosts of its own partition, or the
/// endpoint the user configured; nothing else.
@Suite("Reply queue policy")
struct ReplyQueuePolicyTests {
    static func url(_ host: String, _ scheme: String = "https") -> String { "\(scheme)://\(host)/123456789012/replies" }

    @Test func awsHostsOfTheViewersPartitionGoToThemselves() throws {
        let policy = ReplyQueuePolicy(viewerRegion: "us-east-1")
        let target = try policy.target(for: Self.url("sqs.eu-west-1.amazonaws.com")).get()
        #expect(target == ReplyQueuePolicy.Target(endpoint: "https://sqs.eu-west-1.amazonaws.com", host: "sqs.eu-west-1.amazonaws.com",
                                                  account: "123456789012", queueName: "replies", region: "eu-west-1"))
        #expect(try policy.target(for: Self.url("ap-southeast-2.queue.amazonaws.com")).get().region == "ap-southeast-2")
        #expect(try policy.target(for: Self.url("sqs.eu-west-1.amazonaws.com:443")).get().endpoint == "https://sqs.eu-west-1.amazonaws.com")
        #expect((try? ReplyQueuePolicy().target(for: Self.url("sqs.eu-west-1.amazonaws.com")).get()) != nil, "no region: aws")
    }

    @Test func chinaAndGovCloudOnlyForTheirOwnViewers() {
        let cn = Self.url("sqs.cn-north-1.amazonaws.com.cn"), gov = Self.url("sqs.us-gov-west-1.amazonaws.com")
        let aws = ReplyQueuePolicy(viewerRegion: "eu-west-1")
        #expect((try? aws.target(for: cn).get()) == nil)
        #expect((try? aws.target(for: gov).get()) == nil)
        #expect((try? ReplyQueuePolicy(viewerRegion: "cn-northwest-1").target(for: cn).get())?.region == "cn-north-1")
        #expect((try? ReplyQueuePolicy(viewerRegion: "cn-northwest-1").target(for: Self.url("sqs.eu-west-1.amazonaws.com")).get()) == nil)
        #expect((try? ReplyQueuePolicy(viewerRegion: "us-gov-east-1").target(for: gov).get())?.region == "us-gov-west-1")
        #expect((try? ReplyQueuePolicy(viewerRegion: "us-iso-east-1").target(for: Self.url("sqs.us-east-1.amazonaws.com")).get()) == nil)
    }

    @Test func everyOtherHostIsRefusedWithAReason() {
        let policy = ReplyQueuePolicy(viewerRegion: "eu-west-1")
        for host in ["127.0.0.1:8999", "localhost:4566", "sqs.eu-west-1.amazonaws.com.evil.example", "evil.example",
                     "x.sqs.eu-west-1.amazonaws.com", "sqs.eu-west-1.amazonaws.com:8443", "sqs.notaregion.amazonaws.com",
                     "sqs.amazonaws.com", "queue.amazonaws.com", "sqs.eu-west-1.amazonaws.co"] {
            let scheme = host.hasPrefix("127.") || host.hasPrefix("localhost") ? "http" : "https"
            guard case .failure(let refusal) = policy.target(for: Self.url(host, scheme)) else {
                Issue.record("allowed \(host)"); continue
            }
            #expect(refusal.reason.contains("nothing was signed or sent") || refusal.reason.contains("not an SQS queue URL"), "\(host)")
        }
        guard case .failure(let refusal) = policy.target(for: Self.url("127.0.0.1:8999", "http")) else { return }
        #expect(refusal.reason == "reply_to names host 127.0.0.1:8999, not an AWS SQS host of the aws partition and no endpoint is configured (--endpoint-url, AWS_ENDPOINT_URL_SQS): nothing was signed or sent")
        #expect((try? policy.target(for: "https://sqs.eu-west-1.amazonaws.com/1234/replies").get()) == nil, "not a queue URL")
    }

    @Test func aConfiguredEndpointTakesItsOwnHostAndAWSHostsOnly() throws {
        let policy = ReplyQueuePolicy(viewerRegion: nil, configuredEndpoint: "http://127.0.0.1:4566/")
        let local = try policy.target(for: Self.url("127.0.0.1:4566", "http")).get()
        #expect(local == ReplyQueuePolicy.Target(endpoint: "http://127.0.0.1:4566", host: "127.0.0.1:4566", account: "123456789012",
                                                 queueName: "replies", region: nil))
        #expect((try? policy.target(for: Self.url("127.0.0.1:4567", "http")).get()) == nil, "another port")
        #expect((try? policy.target(for: Self.url("localhost:4566", "http")).get()) == nil, "another host name")
        // An AWS queue URL still goes to the configured endpoint: credentials go only where the user pointed them.
        #expect(try policy.target(for: Self.url("sqs.eu-west-1.amazonaws.com")).get().endpoint == "http://127.0.0.1:4566")
        let tls = ReplyQueuePolicy(configuredEndpoint: "https://sqs.internal.example:443")
        #expect(try tls.target(for: Self.url("sqs.internal.example")).get().host == "sqs.internal.example")
    }

    @Test func locationNamesHostAndAccount() {
        let here = ReplyQueuePolicy.location(of: "http://127.0.0.1:4566/000000000000/q")
        #expect(here?.host == "127.0.0.1:4566" && here?.account == "000000000000")
        #expect(ReplyQueuePolicy.location(of: "https://example.com/x") == nil)
    }
}
