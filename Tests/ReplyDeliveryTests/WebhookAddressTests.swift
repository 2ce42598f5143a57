import Foundation
import ReplyDelivery
import SQSClient
import TestSupport
import Testing
import TimelineCore

/// Where a webhook may go: refused forms never reach the transport; allowed ones carry the checks the
/// transport applies once connected (`peerPolicy`) and the webhook's answer limit.
@Suite struct WebhookAddressTests {
    func deliver(_ url: String, allowPrivate: Bool = false) -> (ReplyRecord.Delivery, ScriptedTransport) {
        let transport = ScriptedTransport { _ throws(TransportError) in HTTPResponse(status: 204, headers: [], body: []) }
        let sender = ReplySender(policy: ReplyQueuePolicy(), clientFor: { _ in throw CancellationError() }, webhookTransport: transport,
                                 allowPrivateWebhooks: allowPrivate)
        let reply = Reply(id: "r1", inReplyTo: "e1", taskID: "t1", agentID: "a1", answer: .action("go"), from: "me",
                          timestampMicros: 1_795_000_000_000_000)
        let record = ReplyRecord(reply: reply, label: "Go", destination: .webhook(url), delivery: .sending, updatedMicros: 0)
        return (sender.deliver(record), transport)
    }

    @Test(arguments: [
        ("https://169.254.169.254/latest/", "169.254.169.254 is a link-local address (cloud metadata lives there)"),
        ("https://[::ffff:169.254.169.254]/", "[::ffff:169.254.169.254] is a link-local address (cloud metadata lives there)"),
        ("https://[fe80::1]/", "[fe80::1] is a link-local address (cloud metadata lives there)"),
        ("https://metadata.google.internal/", "metadata.google.internal is a cloud metadata service"),
        ("https://10.0.0.5/hook", "10.0.0.5 is a private address (webhook_allow_private = true allows it)"),
        ("https://[::ffff:192.168.1.1]/", "[::ffff:192.168.1.1] is a private address (webhook_allow_private = true allows it)"),
        ("https://100.64.1.1/", "100.64.1.1 is a private address (webhook_allow_private = true allows it)"),
        ("https://0.0.0.0/", "0.0.0.0 is a reserved, multicast or broadcast address"),
        ("https://255.255.255.255/", "255.255.255.255 is a reserved, multicast or broadcast address"),
        ("https://2852039166/", "2852039166 is not a host name nor a plain dotted IPv4 address"),
    ])
    func refusedWebhooksAreNeverContacted(_ url: String, _ reason: String) {
        let (delivery, transport) = deliver(url)
        #expect(delivery == .failed(reason: "refused webhook: \(reason)"))
        #expect(transport.calls.isEmpty)
    }

    @Test func privateNetworksAreAllowedByTheSettingButLinkLocalNever() {
        let (privateDelivery, privateTransport) = deliver("https://10.0.0.5/hook", allowPrivate: true)
        #expect(privateDelivery == .sent(detail: "HTTP 204"))
        #expect(privateTransport.calls.first?.request.peerPolicy == .webhook(allowPrivate: true))
        let (metadata, transport) = deliver("https://169.254.169.254/", allowPrivate: true)
        #expect(metadata != .sent(detail: "HTTP 204") && transport.calls.isEmpty)
    }

    @Test func allowedWebhooksCarryTheConnectedAddressCheckAndASmallAnswerLimit() throws {
        for url in ["https://hooks.example.com/x", "http://127.0.0.1:9/hook", "http://localhost:9/hook"] {
            let (delivery, transport) = deliver(url)
            #expect(delivery == .sent(detail: "HTTP 204"), "\(url)")
            let request = try #require(transport.calls.first?.request)
            #expect(request.peerPolicy == .webhook(allowPrivate: false))
            #expect(request.responseLimit == .webhook)
        }
    }
}
