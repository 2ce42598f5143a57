import Foundation
import SharedRules
@testable import SQSClient
import TestSupport
import Testing

/// Endpoints that never stop answering, and connected addresses a request may not go to.
@Suite struct ResponseLimitTests {
    static let small = ResponseLimit(bodyBytes: 256 * 1_024, headerBytes: 16 * 1_024)

    /// Sends to a server that answers `kind` forever; returns the error and how long it took.
    func endless(_ kind: LoopbackHTTPServer.Endless, limit: ResponseLimit = small) throws -> (TransportError?, TimeInterval) {
        let server = try LoopbackHTTPServer { _ in .endless(kind) }
        defer { server.stop() }
        let started = Date()
        do {
            _ = try CurlTransport().send(HTTPRequest(method: "POST", url: server.url, body: [1], responseLimit: limit),
                                         timeout: 60, cancel: nil)
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    @Test(arguments: [LoopbackHTTPServer.Endless.chunked, .hugeContentLength, .headers])
    func anEndlessAnswerStopsAtTheLimitWithAClearError(_ kind: LoopbackHTTPServer.Endless) throws {
        let (error, elapsed) = try endless(kind)
        let stopped = try #require(error, "an endless answer produced a response")
        #expect(stopped.kind == .responseTooLarge, "\(stopped)")
        #expect(!stopped.isRetryable)
        #expect(stopped.message.hasPrefix("the answer from http://127.0.0.1:"), "\(stopped.message)")
        #expect(stopped.message.hasSuffix("stopped reading"), "\(stopped.message)")
        switch kind {
        case .chunked: #expect(stopped.message.contains("passed 262144 bytes"))
        case .hugeContentLength: #expect(stopped.message.contains("announced 1000000000000 bytes, past 262144 bytes"))
        case .headers: #expect(stopped.message.contains("passed 16384 bytes of headers"))
        }
        #expect(elapsed < 10, "took \(elapsed) s")
    }

    @Test func requestsThatNameNoLimitGetTheStandardOne() throws {
        let (error, _) = try endless(.chunked, limit: ResponseLimit.standard)
        #expect(error?.message.contains("passed \(ResponseLimit.standard.bodyBytes) bytes") == true, "\(String(describing: error))")
    }

    @Test func anAnswerWithinTheLimitIsRead() throws {
        let body = String(repeating: "z", count: 200_000)
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, headers: [], body: body) }
        defer { server.stop() }
        let response = try CurlTransport().send(HTTPRequest(method: "GET", url: server.url, responseLimit: Self.small), timeout: 5, cancel: nil)
        #expect(response.body.count == 200_000)
    }

    @Test func anEndlessReceiveMessageStopsAtItsLimit() throws {
        let server = try LoopbackHTTPServer { _ in .endless(.chunked) }
        defer { server.stop() }
        let client = SQSClient(endpoint: server.url, region: "us-east-1", credentials: StaticCredentialsProvider(TestClients.credentials))
        do {
            _ = try client.receiveMessage(queueURL: "\(server.url)000000000000/q", waitSeconds: 0)
            Issue.record("an endless ReceiveMessage answer produced messages")
        } catch {
            #expect(error.transport?.kind == .responseTooLarge, "\(error)")
            #expect(error.message.contains("passed \(ResponseLimit.sqsReceive.bodyBytes) bytes"), "\(error)")
            #expect(!error.isRetryable)
        }
    }

    @Test func everyCallNamesItsLimit() {
        let request = SQSClient(endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                                credentials: StaticCredentialsProvider(TestClients.credentials))
        let receive = request.signedRequest(action: "ReceiveMessage", body: [], credentials: TestClients.credentials)
        let send = request.signedRequest(action: "SendMessage", body: [], credentials: TestClients.credentials)
        #expect(receive.responseLimit == .sqsReceive && send.responseLimit == .sqsCall)
        #expect(ResponseLimit.sqsReceive.bodyBytes >= 30 * 1_048_576, "10 messages of 1 MiB, escaped")
        #expect(ResponseLimit.webhook.bodyBytes <= 65_536)
    }

    @Test func snsAndSTSCallsNameTheirLimits() {
        let transport = ScriptedTransport { _ throws(TransportError) in HTTPResponse(status: 500, headers: [], body: []) }
        let url = URL(string: "http://127.0.0.1:1")!
        _ = try? SNSClient(endpoint: url, region: "us-east-1", credentials: StaticCredentialsProvider(TestClients.credentials),
                           transport: transport).listTopics()
        _ = try? STSClient(endpoint: url, region: "us-east-1", transport: transport).callerARN(TestClients.credentials)
        #expect(transport.calls.map(\.request.responseLimit) == [.sns, .sts])
    }

    // MARK: - The connected address

    /// Runs the PREREQ callback as libcurl would, with `address` as the connected peer.
    func prereq(_ policy: PeerPolicy?, connectedTo address: String) -> (Int32, TransportError?) {
        let sink = ResponseSink(policy: policy, origin: "http://localhost:8080")
        let result = address.withCString { ip in
            ResponseSink.prereqCallback(Unmanaged.passUnretained(sink).toOpaque(), UnsafeMutablePointer(mutating: ip), nil, 8080, 50000)
        }
        return (result, sink.stopped)
    }

    @Test func aLoopbackRequestConnectedElsewhereSendsNothing() {
        let (result, stopped) = prereq(.loopback, connectedTo: "192.0.2.1")
        #expect(result == 1)  // CURL_PREREQFUNC_ABORT
        #expect(stopped?.kind == .refusedAddress)
        #expect(stopped?.message == "refused to send to http://localhost:8080: its connected address 192.0.2.1 is not a loopback address (public); nothing was sent")
        #expect(prereq(.loopback, connectedTo: "127.0.0.1").0 == 0)
        #expect(prereq(.loopback, connectedTo: "::1").0 == 0)
    }

    @Test func aWebhookConnectedToMetadataOrAPrivateAddressSendsNothing() {
        #expect(prereq(.webhook(allowPrivate: true), connectedTo: "169.254.169.254").0 == 1)
        #expect(prereq(.webhook(allowPrivate: true), connectedTo: "::ffff:169.254.169.254").0 == 1)
        #expect(prereq(.webhook(allowPrivate: false), connectedTo: "10.0.0.7").0 == 1)
        #expect(prereq(.webhook(allowPrivate: true), connectedTo: "10.0.0.7").0 == 0)
        #expect(prereq(.webhook(allowPrivate: false), connectedTo: "192.0.2.10").0 == 0)
        #expect(prereq(nil, connectedTo: "169.254.169.254").0 == 0)
    }

    @Test func aCheckedRequestToARealLoopbackServerGoesThrough() throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 204, headers: [], body: "") }
        defer { server.stop() }
        let transport = CurlTransport()
        for host in ["127.0.0.1", "localhost"] {
            let url = URL(string: "http://\(host):\(server.port)/hook")!
            #expect(try transport.send(HTTPRequest(method: "POST", url: url, body: [1], peerPolicy: .webhook(allowPrivate: false)),
                                       timeout: 5, cancel: nil).status == 204)
        }
        #expect(server.requests.count == 2)
    }
}
