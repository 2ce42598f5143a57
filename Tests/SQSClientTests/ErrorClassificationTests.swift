import TestSupport
import Foundation
import SQSClient
import Testing

/// Error paths through the real HTTP stack, plus decoding of error bodies.
@Suite struct ErrorClassificationTests {
    @Test func missingQueueIsQueueMissing() throws {
        let server = try MotoServer.shared
        let client = TestClients.client(server)
        let missing = server.endpoint.appendingPathComponent("123456789012/does-not-exist-\(UUID().uuidString.prefix(6))").absoluteString
        do {
            _ = try client.receiveMessage(queueURL: missing, waitSeconds: 0)
            Issue.record("receiving from a missing queue succeeded")
        } catch {
            #expect(error.kind == .queueMissing, "got \(error.kind): \(error)")
            #expect(!error.isRetryable)
            #expect(error.httpStatus == 400)
        }
        #expect(throws: SQSError.self) { _ = try client.getQueueURL(name: "never-created-\(UUID().uuidString.prefix(6))") }
    }

    @Test func connectionRefusedIsRetryableNetworkError() throws {
        let port = try FreePort.find()
        let client = SQSClient(
            endpoint: URL(string: "http://127.0.0.1:\(port)")!, region: "us-east-1",
            credentials: StaticCredentialsProvider(TestClients.credentials))
        do {
            _ = try client.sendMessage(queueURL: "http://127.0.0.1:\(port)/1/q", body: "x")
            Issue.record("sending to a closed port succeeded")
        } catch {
            #expect(error.kind == .network)
            #expect(error.transport?.kind == .connect)
            #expect(error.isRetryable)
            #expect(!"\(error)".contains(TestClients.credentials.secretAccessKey))
        }
    }

    @Test func invalidURLIsNotRetryable() throws {
        let client = SQSClient(
            endpoint: URL(string: "ftp://127.0.0.1:1")!, region: "us-east-1",
            credentials: StaticCredentialsProvider(TestClients.credentials))
        do {
            _ = try client.sendMessage(queueURL: "q", body: "x")
            Issue.record("an ftp endpoint was accepted")
        } catch {
            #expect(error.kind == .network)
            #expect(error.transport?.kind == .invalidURL)
            #expect(!error.isRetryable)
        }
    }

    @Test func decodesJSONErrorTypes() {
        let error = decode(400, #"{"__type":"com.amazonaws.sqs#QueueDoesNotExist:http://internal.amazon.com/","message":"The specified queue does not exist."}"#)
        #expect(error.code == "QueueDoesNotExist")
        #expect(error.kind == .queueMissing)
        #expect(error.message == "The specified queue does not exist.")

        let throttled = decode(400, #"{"__type":"com.amazon.coral.availability#ThrottlingException","Message":"Rate exceeded"}"#)
        #expect(throttled.kind == .throttled)
        #expect(throttled.isRetryable)
        #expect(throttled.message == "Rate exceeded")

        let denied = decode(400, #"{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The security token included in the request is invalid."}"#)
        #expect(denied.kind == .auth)
        #expect(!denied.isRetryable)

        let other = decode(400, #"{"__type":"com.amazonaws.sqs#InvalidParameterValue","message":"bad"}"#)
        #expect(other.kind == .client)
    }

    @Test func decodesQueryErrorHeader() {
        let response = HTTPResponse(
            status: 400, headers: [HTTPHeader("x-amzn-query-error", "AWS.SimpleQueueService.NonExistentQueue;Sender")],
            body: Array(#"{"message":"gone"}"#.utf8))
        let error = SQSError.decode(response)
        #expect(error.code == "AWS.SimpleQueueService.NonExistentQueue")
        #expect(error.kind == .queueMissing)
    }

    @Test func decodesXMLAndHTMLBodies() {
        let xml = decode(403, """
            <?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code>\
            <Message>The request signature we calculated does not match &amp; so on</Message></Error></ErrorResponse>
            """)
        #expect(xml.code == "SignatureDoesNotMatch")
        #expect(xml.kind == .auth)
        #expect(xml.message == "The request signature we calculated does not match & so on")

        let html = decode(502, "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad\u{1b}[31m Gateway</h1></body></html>")
        #expect(html.kind == .server)
        #expect(html.isRetryable)
        #expect(html.code == "HTTP 502")
        #expect(html.message.contains("502 Bad Gateway"))
        #expect(!html.message.contains("\u{1b}"))

        #expect(decode(429, "").kind == .throttled)
        #expect(decode(403, "").kind == .auth)
        #expect(decode(500, "{}").kind == .server)
    }

    private func decode(_ status: Int, _ body: String) -> SQSError {
        SQSError.decode(HTTPResponse(status: status, headers: [], body: Array(body.utf8)))
    }
}
