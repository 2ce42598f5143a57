import TestSupport
import Foundation
import SQSClient
import Testing

/// The libcurl transport against a loopback server of our own: keep-alive, headers, failures.
@Suite struct CurlTransportTests {
    @Test func reusesConnectionsAndCapturesHeaders() throws {
        let server = try LoopbackHTTPServer { request in
            .respond(status: 200, headers: [("X-Echo-Length", "\(request.body.count)"), ("X-Multi", "one")], body: "ok")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        for index in 0..<5 {
            let response = try transport.send(
                HTTPRequest(method: "POST", url: server.url, headers: [HTTPHeader("X-Index", "\(index)")], body: Array("body-\(index)".utf8)),
                timeout: 5, cancel: nil)
            #expect(response.status == 200)
            #expect(response.text == "ok")
            #expect(response.headers.value(for: "x-echo-length") == "\("body-\(index)".utf8.count)")
        }
        #expect(server.connectionCount == 1, "5 sequential requests should share one kept-alive connection")
        let heads = server.requests.map(\.head)
        #expect(heads.count == 5)
        #expect(heads.allSatisfy { $0.hasPrefix("POST / HTTP/1.1") && $0.contains("X-Index:") && !$0.lowercased().contains("expect:") })
        #expect(server.requests.map { String(decoding: $0.body, as: UTF8.self) } == (0..<5).map { "body-\($0)" })
    }

    @Test func emptyPostBodyAndGet() throws {
        let server = try LoopbackHTTPServer { request in
            .respond(status: 200, headers: [], body: request.head.components(separatedBy: " ").first ?? "")
        }
        defer { server.stop() }
        let transport = CurlTransport()
        #expect(try transport.send(HTTPRequest(method: "POST", url: server.url), timeout: 5, cancel: nil).text == "POST")
        #expect(try transport.send(HTTPRequest(method: "GET", url: server.url), timeout: 5, cancel: nil).text == "GET")
        #expect(server.requests.first?.head.contains("Content-Length: 0") == true)
    }

    @Test func droppedConnectionIsRetryable() throws {
        let server = try LoopbackHTTPServer { _ in .drop }
        defer { server.stop() }
        do {
            _ = try CurlTransport().send(HTTPRequest(method: "POST", url: server.url, body: [1]), timeout: 5, cancel: nil)
            Issue.record("a dropped connection produced a response")
        } catch {
            #expect(error.kind == .connectionLost, "got \(error)")
            #expect(error.isRetryable)
        }
    }

    @Test func totalTimeoutIsATimeout() throws {
        let server = try LoopbackHTTPServer { _ in .hang(seconds: 5) }
        defer { server.stop() }
        do {
            _ = try CurlTransport().send(HTTPRequest(method: "POST", url: server.url), timeout: 0.5, cancel: nil)
            Issue.record("a hung server produced a response")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.isRetryable)
        }
    }

    @Test func serverErrorsAreClassifiedThroughTheClient() throws {
        let server = try LoopbackHTTPServer { request in
            if request.head.contains("AmazonSQS.SendMessage") {
                return .respond(status: 500, headers: [("Content-Type", "text/html")], body: "<html><body><h1>500 Internal Server Error</h1></body></html>")
            }
            return .respond(status: 400, headers: [("x-amzn-query-error", "AWS.SimpleQueueService.RequestThrottled;Sender")],
                            body: #"{"__type":"com.amazonaws.sqs#RequestThrottled","message":"slow down"}"#)
        }
        defer { server.stop() }
        let client = SQSClient(endpoint: server.url, region: "us-east-1", credentials: StaticCredentialsProvider(TestClients.credentials))
        do {
            _ = try client.sendMessage(queueURL: "q", body: "x")
            Issue.record("500 was not an error")
        } catch {
            #expect(error.kind == .server)
            #expect(error.httpStatus == 500)
            #expect(error.isRetryable)
            #expect(error.message.contains("500 Internal Server Error"))
        }
        do {
            _ = try client.receiveMessage(queueURL: "q", waitSeconds: 0)
            Issue.record("throttling was not an error")
        } catch {
            #expect(error.kind == .throttled)
            #expect(error.isRetryable)
        }
        // What went over the wire is a signed JSON 1.0 call.
        let head = try #require(server.requests.first?.head)
        #expect(head.contains("Content-Type: application/x-amz-json-1.0"))
        #expect(head.contains("X-Amz-Target: AmazonSQS.SendMessage"))
        #expect(head.contains("Authorization: AWS4-HMAC-SHA256 Credential=\(TestClients.credentials.accessKeyID)/"))
        #expect(head.contains("/us-east-1/sqs/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature="))
        #expect(!head.contains(TestClients.credentials.secretAccessKey))
    }

    /// libcurl reads `http_proxy`/`no_proxy` itself. Run in a child process so the environment
    /// change cannot affect other tests.
    @Test func proxyEnvironmentIsHonoured() async throws {
        await #expect(processExitsWith: .success) {
            let proxy = try LoopbackHTTPServer { request in
                .respond(status: 200, headers: [], body: request.head.components(separatedBy: "\r\n").first ?? "")
            }
            setenv("http_proxy", "http://127.0.0.1:\(proxy.port)", 1)
            unsetenv("no_proxy")
            unsetenv("NO_PROXY")
            let response = try CurlTransport().send(
                HTTPRequest(method: "GET", url: URL(string: "http://timeline-proxy-test.invalid/path")!), timeout: 5, cancel: nil)
            // Through a proxy the request line carries the absolute URL.
            guard response.text == "GET http://timeline-proxy-test.invalid/path HTTP/1.1" else { exit(1) }
            setenv("no_proxy", "timeline-proxy-test.invalid", 1)
            do {
                _ = try CurlTransport().send(
                    HTTPRequest(method: "GET", url: URL(string: "http://timeline-proxy-test.invalid/path")!), timeout: 5, cancel: nil)
                exit(2)  // no_proxy ignored: the proxy answered
            } catch {
                exit((error as? TransportError)?.kind == .dns ? 0 : 3)
            }
        }
    }
}
