import Foundation
import SQSClient

/// Clients and queues for tests against moto.
enum TestClients {
    static let region = "us-east-1"
    static let credentials = AWSCredentials(
        accessKeyID: "AKIATESTTESTTEST1234", secretAccessKey: "test-secret-not-real", source: "tests")

    static func client(_ server: MotoServer, transport: any HTTPTransport = CurlTransport()) -> SQSClient {
        SQSClient(endpoint: server.endpoint, region: region, credentials: StaticCredentialsProvider(credentials), transport: transport)
    }

    /// A new queue with a unique name.
    static func freshQueue(_ client: SQSClient, prefix: String = "test") throws -> String {
        try client.createQueue(name: "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
    }
}
