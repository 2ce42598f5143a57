import Foundation
import SQSClient
import TestSupport
import Testing

/// Request shapes, timeouts, sanitizing and clock-skew reading, against a scripted transport (no network).
@Suite struct ScriptedTransportTests {
    static let queueURL = "http://127.0.0.1:1/000000000000/q"
    /// Terminal controls a spoofed endpoint could try: OSC 52 (clipboard), a window title, CSI, C1, bidi.
    static let hostile = "\u{1B}]52;c;SGVsbG8=\u{07}\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}Evil\r\nX"

    static func client(_ transport: ScriptedTransport, clock: @escaping @Sendable () -> Date = { Date() }) -> SQSClient {
        SQSClient(endpoint: URL(string: "http://127.0.0.1:1")!, region: "us-east-1",
                  credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport, clock: clock)
    }

    /// True when `text` holds nothing a terminal would act on.
    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
    }

    @Test func requestShapesAndTimeouts() throws {
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "SendMessage": return ScriptedTransport.ok(#"{"MessageId":"id-1"}"#)
            case "GetQueueAttributes": return ScriptedTransport.ok(#"{"Attributes":{"ApproximateNumberOfMessages":"3"}}"#)
            default: return ScriptedTransport.ok("{}")
            }
        }
        let client = Self.client(transport)
        _ = try client.receiveMessage(queueURL: Self.queueURL, maxMessages: 10, waitSeconds: 20)
        _ = try client.sendMessage(queueURL: Self.queueURL, body: "hello")
        _ = try client.getQueueAttributes(queueURL: Self.queueURL)
        let receive = try #require(transport.calls("ReceiveMessage").first)
        #expect(receive.timeout == 30, "ReceiveMessage: wait + 10 s")
        #expect(receive.body["WaitTimeSeconds"] as? Int == 20)
        #expect(receive.body["QueueUrl"] as? String == Self.queueURL)
        #expect(receive.request.method == "POST" && receive.request.url.path.isEmpty || receive.request.url.path == "/")
        #expect(receive.request.headers.value(for: "Content-Type") == "application/x-amz-json-1.0")
        #expect(receive.request.headers.value(for: "Authorization")?.hasPrefix("AWS4-HMAC-SHA256 ") == true)
        #expect(transport.calls("SendMessage").first?.timeout == 30)
        #expect(transport.calls("GetQueueAttributes").first?.timeout == 30)
    }

    @Test func retryClassification() throws {
        let answers: [(HTTPResponse, SQSError.Kind, Bool)] = [
            (ScriptedTransport.error(status: 400, type: "com.amazonaws.sqs#ThrottlingException", message: "slow"), .throttled, true),
            (ScriptedTransport.error(status: 500, type: "InternalError", message: "x"), .server, true),
            (ScriptedTransport.error(status: 400, type: "AccessDeniedException", message: "no"), .auth, false),
            (ScriptedTransport.error(status: 400, type: "QueueDoesNotExist", message: "no"), .queueMissing, false),
            (ScriptedTransport.error(status: 400, type: "InvalidParameterValue", message: "bad"), .client, false),
        ]
        for (answer, kind, retryable) in answers {
            let client = Self.client(ScriptedTransport { _ throws(TransportError) in answer })
            do {
                _ = try client.receiveMessage(queueURL: Self.queueURL, waitSeconds: 0)
                Issue.record("expected \(kind)")
            } catch {
                #expect(error.kind == kind)
                #expect(error.isRetryable == retryable)
            }
        }
        let timedOut = Self.client(ScriptedTransport { _ throws(TransportError) in
            throw TransportError(kind: .timeout, code: 28, message: "Operation timed out after 30000 milliseconds")
        })
        #expect(throws: SQSError.self) { _ = try timedOut.sendMessage(queueURL: Self.queueURL, body: "x") }
        do { _ = try timedOut.sendMessage(queueURL: Self.queueURL, body: "x") } catch {
            #expect(error.kind == .network && error.transport?.kind == .timeout && error.isRetryable)
        }
    }

    @Test func everyStringFromTheNetworkIsSanitizedWhereItEnters() throws {
        let hostile = Self.hostile
        let transport = ScriptedTransport { call throws(TransportError) in
            switch call.action {
            case "SendMessage":
                let body = try! JSONSerialization.data(withJSONObject: ["MessageId": hostile])
                return ScriptedTransport.ok(String(decoding: body, as: UTF8.self))
            case "GetQueueAttributes":
                let body = try! JSONSerialization.data(withJSONObject: ["Attributes": ["Policy\u{1B}[1m": hostile]])
                return ScriptedTransport.ok(String(decoding: body, as: UTF8.self))
            case "GetQueueUrl":
                let body = try! JSONSerialization.data(withJSONObject: ["QueueUrl": "http://x/\u{1B}]0;t\u{07}"])
                return ScriptedTransport.ok(String(decoding: body, as: UTF8.self))
            case "DeleteMessageBatch":
                let body = try! JSONSerialization.data(withJSONObject: [
                    "Failed": [["Id": "m0", "Code": hostile, "Message": hostile, "SenderFault": true]]])
                return ScriptedTransport.ok(String(decoding: body, as: UTF8.self))
            case "ReceiveMessage":
                return ScriptedTransport.error(
                    status: 400, type: hostile, message: hostile, headers: [HTTPHeader("x-amzn-query-error", "\(hostile);Sender")])
            default:
                let xml = "<ErrorResponse><Error><Code>\(hostile)</Code><Message>\(hostile)</Message></Error></ErrorResponse>"
                return HTTPResponse(status: 400, headers: [], body: Array(xml.utf8))
            }
        }
        let client = Self.client(transport)
        #expect(Self.isInert(try client.sendMessage(queueURL: Self.queueURL, body: "x")))
        let attributes = try client.getQueueAttributes(queueURL: Self.queueURL)
        #expect(attributes.count == 1)
        for (key, value) in attributes { #expect(Self.isInert(key) && Self.isInert(value)) }
        #expect(throws: SQSError.self) { _ = try client.getQueueURL(name: "q") }
        let batch = try client.deleteMessageBatch(queueURL: Self.queueURL, entries: [DeleteEntry(id: "m0", receiptHandle: "h")])
        #expect(batch.failed.allSatisfy { Self.isInert($0.code) && Self.isInert($0.message) })
        for action in ["ReceiveMessage", "PurgeQueue"] {
            do {
                if action == "ReceiveMessage" {
                    _ = try client.receiveMessage(queueURL: Self.queueURL, waitSeconds: 0)
                } else {
                    try client.purgeQueue(queueURL: Self.queueURL)
                }
                Issue.record("expected an error")
            } catch {
                #expect(Self.isInert(error.code), "code: \(error.code.debugDescription)")
                #expect(Self.isInert(error.message), "message: \(error.message.debugDescription)")
                #expect(Self.isInert(error.description))
                #expect(error.message.contains("Evil"), "the text itself is kept, only made safe")
            }
        }
    }

    @Test func aSkewedClockIsNamedFromTheEndpointsDateHeader() throws {
        let serverNow = Date()
        for (code, offset, skewed) in [("RequestExpired", 600.0, true), ("SignatureDoesNotMatch", -900.0, true),
                                       ("SignatureDoesNotMatch", 20.0, false)] {
            let transport = ScriptedTransport { _ throws(TransportError) in
                ScriptedTransport.error(status: 400, type: code, message: "Signature expired",
                                        headers: [HTTPHeader("Date", ScriptedTransport.httpDate(serverNow))])
            }
            // The local clock is `offset` seconds behind the endpoint's.
            let client = Self.client(transport, clock: { serverNow.addingTimeInterval(-offset) })
            do {
                _ = try client.receiveMessage(queueURL: Self.queueURL, waitSeconds: 0)
                Issue.record("expected an auth error")
            } catch {
                #expect(error.kind == .auth)
                #expect(error.isClockSkewed == skewed, "\(code) \(offset): \(error.clockSkew ?? .nan)")
                #expect(error.description.contains("clock") == skewed, "\(error.description)")
                if skewed { #expect(error.description.contains(offset > 0 ? "behind" : "ahead")) }
            }
        }
    }
}
