import Foundation
import Synchronization
import SQSClient

/// Clients and queues for tests against moto.
public enum TestClients {
    public static let region = "us-east-1"
    public static let credentials = AWSCredentials(
        accessKeyID: "AKIATESTTESTTEST1234", secretAccessKey: "test-secret-not-real", source: "tests")

    public static func client(_ server: MotoServer, transport: any HTTPTransport = CurlTransport()) -> SQSClient {
        client(endpoint: server.endpoint, transport: transport)
    }

    /// A client for any endpoint (e.g. a fault proxy in front of moto).
    public static func client(endpoint: URL, transport: any HTTPTransport = CurlTransport()) -> SQSClient {
        SQSClient(endpoint: endpoint, region: region, credentials: StaticCredentialsProvider(credentials), transport: transport)
    }

    /// A new queue with a unique name.
    public static func freshQueue(_ client: SQSClient, prefix: String = "test") throws -> String {
        try client.createQueue(name: "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())")
    }
}

/// A value shared between test threads: a `Mutex` that closures can capture (a `Mutex` itself cannot be
/// captured by an escaping closure).
public final class Locked<Value>: Sendable {
    private let mutex: Mutex<Value>
    public init(_ value: sending Value) { mutex = Mutex(value) }
    public func withValue<R>(_ body: (inout sending Value) -> sending R) -> sending R { mutex.withLock { body(&$0) } }
    public var current: Value { mutex.withLock { $0 } }
}

/// An `HTTPTransport` that records every request (method, URL, headers, body) and passes it on.
public final class RecordingTransport: HTTPTransport, Sendable {
    private let inner: any HTTPTransport
    private let recorded = Locked<[HTTPRequest]>([])

    public init(_ inner: any HTTPTransport = CurlTransport()) { self.inner = inner }

    public var requests: [HTTPRequest] { recorded.current }

    /// Bodies (as text) of the requests whose body contains `Action=<action>`.
    public func bodies(action: String) -> [String] {
        requests.map { String(decoding: $0.body, as: UTF8.self) }.filter { $0.contains("Action=\(action)&") }
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval, cancel: CancellationToken?) throws(TransportError) -> HTTPResponse {
        recorded.withValue { $0.append(request) }
        return try inner.send(request, timeout: timeout, cancel: cancel)
    }
}
