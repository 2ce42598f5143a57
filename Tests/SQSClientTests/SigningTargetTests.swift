import Foundation
import SigV4
import SQSClient
import TestSupport
import Testing

/// The client works out the `Host` header, path and query it signs once, from its endpoint: every call
/// must still carry exactly the signature computed from the endpoint URL itself.
@Suite struct SigningTargetTests {
    static let signingDate = Date(timeIntervalSince1970: 1_795_000_000)

    /// Signs a call to `endpoint` through the client and independently from the URL's parts.
    private func check(endpoint: String, host: String, path: String, query: String) throws {
        let transport = ScriptedTransport { _ throws(TransportError) in ScriptedTransport.ok(#"{"MessageId":"m"}"#) }
        let client = SQSClient(endpoint: URL(string: endpoint)!, region: "eu-west-1",
                               credentials: StaticCredentialsProvider(TestClients.credentials), transport: transport,
                               clock: { Self.signingDate })
        for body in ["first", "second, same client"] {
            _ = try client.sendMessage(queueURL: "https://sqs.eu-west-1.amazonaws.com/1/q", body: body)
        }
        let calls = transport.calls("SendMessage")
        #expect(calls.count == 2)
        for call in calls {
            let sent = call.request
            #expect(sent.headers.value(for: "Host") == host)
            let unsigned = sent.headers.filter { ["host", "content-type", "x-amz-target"].contains($0.name.lowercased()) }
            let expected = SigV4Signer.sign(
                request: SigningRequest(method: "POST", path: path, query: query, headers: unsigned, body: sent.body),
                credentials: TestClients.credentials, region: "eu-west-1", service: "sqs", date: Self.signingDate)
            #expect(sent.headers.value(for: "Authorization") == expected.value(for: "Authorization"))
            #expect(sent.headers.value(for: "X-Amz-Date") == "20261118T110640Z")
        }
    }

    @Test func defaultPortIsLeftOutOfTheHostAndAnEmptyPathSignsAsSlash() throws {
        try check(endpoint: "https://sqs.eu-west-1.amazonaws.com", host: "sqs.eu-west-1.amazonaws.com", path: "/", query: "")
        try check(endpoint: "http://127.0.0.1:80", host: "127.0.0.1", path: "/", query: "")
    }

    @Test func anotherPortAPathAndAQueryAreSigned() throws {
        try check(endpoint: "http://127.0.0.1:4566/prefix/path?b=2&a=1", host: "127.0.0.1:4566",
                  path: "/prefix/path", query: "b=2&a=1")
        try check(endpoint: "https://[::1]:8443/", host: "[::1]:8443", path: "/", query: "")
    }
}
