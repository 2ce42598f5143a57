import Foundation
import Testing
@testable import TimelineCore

/// The address rules against the shared examples (`schema/examples/network-addresses.json`, also run by
/// `agent-tool/tests/test_network_address.py`).
@Suite struct NetworkAddressTests {
    struct Examples: Decodable {
        struct Host: Decodable { var host: String; var loopback: Bool; var webhook: String }
        struct Address: Decodable { var address: String; var scope: String? }
        var hosts: [Host]
        var addresses: [Address]
    }

    static let examples: Examples = {
        let url = ExamplePayloads.root.appendingPathComponent("network-addresses.json")
        return try! JSONDecoder().decode(Examples.self, from: Data(contentsOf: url))
    }()

    @Test func loopbackIsNumeric127OrBracketedOneOrLocalhostOnly() {
        #expect(Self.examples.hosts.count > 40)
        for example in Self.examples.hosts {
            #expect(NetworkAddress.isLoopbackHost(example.host) == example.loopback, "\(example.host)")
        }
    }

    @Test func webhookHostsFollowTheExamples() {
        for example in Self.examples.hosts {
            let strict = NetworkAddress.webhookHostRefusal(example.host, allowPrivate: false)
            let lenient = NetworkAddress.webhookHostRefusal(example.host, allowPrivate: true)
            switch example.webhook {
            case "allowed": #expect(strict == nil && lenient == nil, "\(example.host): \(strict ?? "")")
            case "private": #expect(strict != nil && lenient == nil, "\(example.host): \(lenient ?? "allowed")")
            default: #expect(strict != nil && lenient != nil, "\(example.host) should be refused")
            }
        }
    }

    @Test func connectedAddressesHaveTheirScope() {
        for example in Self.examples.addresses {
            #expect(NetworkAddress.scope(of: example.address)?.rawValue == example.scope, "\(example.address)")
        }
    }

    @Test func aLoopbackPolicyRefusesEveryOtherPeer() {
        #expect(NetworkAddress.connectedRefusal("127.0.0.1", policy: .loopback) == nil)
        #expect(NetworkAddress.connectedRefusal("::1", policy: .loopback) == nil)
        #expect(NetworkAddress.connectedRefusal("192.0.2.1", policy: .loopback) == "192.0.2.1 is not a loopback address (public)")
        #expect(NetworkAddress.connectedRefusal("10.0.0.1", policy: .loopback) != nil)
    }

    @Test func aWebhookPolicyRefusesLinkLocalAlwaysAndPrivateUnlessAllowed() {
        #expect(NetworkAddress.connectedRefusal("169.254.169.254", policy: .webhook(allowPrivate: true)) != nil)
        #expect(NetworkAddress.connectedRefusal("10.1.1.1", policy: .webhook(allowPrivate: false)) != nil)
        #expect(NetworkAddress.connectedRefusal("10.1.1.1", policy: .webhook(allowPrivate: true)) == nil)
        #expect(NetworkAddress.connectedRefusal("127.0.0.1", policy: .webhook(allowPrivate: false)) == nil)
        #expect(NetworkAddress.connectedRefusal("192.0.2.1", policy: .webhook(allowPrivate: false)) == nil)
    }

    @Test func plainHTTPToALoopbackNameRequiresALoopbackPeer() {
        #expect(PeerPolicy.effective(scheme: "http", host: "localhost", requested: nil) == .loopback)
        #expect(PeerPolicy.effective(scheme: "http", host: "::1", requested: nil) == .loopback)
        #expect(PeerPolicy.effective(scheme: "http", host: "127.0.0.1", requested: .webhook(allowPrivate: true)) == .loopback)
        #expect(PeerPolicy.effective(scheme: "https", host: "localhost", requested: nil) == nil)
        #expect(PeerPolicy.effective(scheme: "http", host: "10.0.0.1", requested: nil) == nil)
    }

    @Test func eventsNamingMetadataWebhooksAreRejectedWithTheReason() {
        let event = #"{"id":"e","agent_id":"a","task_id":"t","title":"x","status":"info","timestamp":"2026-11-22T03:04:05Z","actions":[{"id":"x","label":"X","url":"https://[::ffff:169.254.169.254]/"}]}"#
        guard case .failure(let rejection) = EventParser.parse(event) else { Issue.record("accepted"); return }
        #expect("\(rejection)".contains("link-local"))
    }
}
