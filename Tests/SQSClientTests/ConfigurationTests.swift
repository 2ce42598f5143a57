import TestSupport
import Foundation
import SQSClient
import Testing

@Suite struct ConfigurationTests {
    @Test func flagsBeatEnvironment() throws {
        let temp = try TemporaryDirectory()
        let configuration = try SQSConfiguration.resolve(
            flags: .init(region: "eu-west-1", queueURL: "https://sqs.us-east-2.amazonaws.com/123456789012/q", endpointURL: "http://127.0.0.1:4566"),
            environment: temp.environment([
                "AWS_REGION": "ap-south-1", "TIMELINE_QUEUE_URL": "https://sqs.us-west-1.amazonaws.com/1/other",
                "AWS_ENDPOINT_URL_SQS": "http://localhost:1",
            ]))
        #expect(configuration.region.value == "eu-west-1")
        #expect(configuration.region.source == "--region")
        #expect(configuration.queue.value == .url("https://sqs.us-east-2.amazonaws.com/123456789012/q"))
        #expect(configuration.queue.source == "--queue-url")
        #expect(configuration.endpoint.value.absoluteString == "http://127.0.0.1:4566")
        #expect(configuration.endpoint.source == "--endpoint-url")
    }

    @Test func environmentOrderForRegionAndEndpoint() throws {
        let temp = try TemporaryDirectory()
        var environment = temp.environment([
            "AWS_DEFAULT_REGION": "us-west-2", "TIMELINE_QUEUE": "events",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:5000",
        ])
        var configuration = try SQSConfiguration.resolve(flags: .init(), environment: environment)
        #expect(configuration.region.value == "us-west-2")
        #expect(configuration.region.source == "AWS_DEFAULT_REGION")
        #expect(configuration.queue.value == .name("events"))
        #expect(configuration.queue.source == "TIMELINE_QUEUE")
        #expect(configuration.endpoint.source == "AWS_ENDPOINT_URL")

        environment["AWS_REGION"] = "ca-central-1"
        environment["AWS_ENDPOINT_URL_SQS"] = "http://127.0.0.1:6000"
        configuration = try SQSConfiguration.resolve(flags: .init(), environment: environment)
        #expect(configuration.region.source == "AWS_REGION")
        #expect(configuration.endpoint.value.absoluteString == "http://127.0.0.1:6000")
    }

    @Test func regionAndEndpointFromQueueURL() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[default]\nregion = us-east-1\n")
        let configuration = try SQSConfiguration.resolve(
            flags: .init(queueURL: "https://sqs.eu-north-1.amazonaws.com/123456789012/events"), environment: temp.environment())
        #expect(configuration.region.value == "eu-north-1")
        #expect(configuration.region.source == "queue URL host")
        #expect(configuration.endpoint.value.absoluteString == "https://sqs.eu-north-1.amazonaws.com")
        #expect(configuration.endpoint.source == "queue URL")

        let legacy = URL(string: "https://ap-southeast-2.queue.amazonaws.com/1/q")!
        #expect(SQSConfiguration.regionFromQueueHost(legacy) == "ap-southeast-2")
        #expect(SQSConfiguration.regionFromQueueHost(URL(string: "http://localhost:4566/000000000000/q")!) == nil)
    }

    @Test func regionFromProfileAndDefaultEndpoint() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile dev]\nregion = sa-east-1\n")
        let configuration = try SQSConfiguration.resolve(
            flags: .init(queueName: "events", profile: "dev"), environment: temp.environment())
        #expect(configuration.region.value == "sa-east-1")
        #expect(configuration.region.source.contains("profile \"dev\""))
        #expect(configuration.profile.value == "dev")
        #expect(configuration.profile.source == "--profile")
        #expect(configuration.endpoint.value.absoluteString == "https://sqs.sa-east-1.amazonaws.com")
        #expect(configuration.endpoint.source == "region sa-east-1")
    }

    @Test func missingPiecesSayWhereTheyLooked() throws {
        let temp = try TemporaryDirectory()
        #expect { try SQSConfiguration.resolve(flags: .init(region: "us-east-1"), environment: temp.environment()) } throws: { error in
            "\(error)".contains("TIMELINE_QUEUE_URL") && "\(error)".contains("--queue-url")
        }
        #expect { try SQSConfiguration.resolve(flags: .init(queueName: "q"), environment: temp.environment()) } throws: { error in
            "\(error)".contains("AWS_REGION") && "\(error)".contains(".aws/config") && "\(error)".contains("--region")
        }
        #expect(throws: ConfigurationError.self) {
            try SQSConfiguration.resolve(flags: .init(region: "us-east-1", queueURL: "not a url"), environment: temp.environment())
        }
    }

    @Test func queueNameIsResolvedWithGetQueueUrlAgainstMoto() throws {
        let server = try MotoServer.shared
        let temp = try TemporaryDirectory()
        let name = "byname-\(UUID().uuidString.prefix(6).lowercased())"
        let created = try TestClients.client(server).createQueue(name: name)
        let configuration = try SQSConfiguration.resolve(
            flags: .init(queueName: name),
            environment: temp.environment([
                "AWS_REGION": TestClients.region, "AWS_ENDPOINT_URL": server.endpoint.absoluteString,
                "AWS_ACCESS_KEY_ID": "AKIATEST", "AWS_SECRET_ACCESS_KEY": "secret",
            ]))
        let client = configuration.makeClient()
        let resolved = try configuration.queueURL(using: client)
        #expect(resolved.value == created)
        #expect(resolved.source.contains("GetQueueUrl"))
        _ = try client.sendMessage(queueURL: resolved.value, body: "via configuration")
        #expect(try client.receiveMessage(queueURL: resolved.value, waitSeconds: 1).map(\.body) == ["via configuration"])
    }
}
