import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineStore

/// A running poller keeps receiving while its temporary credentials expire and are replaced.
@Suite struct CredentialRefreshPollTests {
    @Test func pollingContinuesAcrossCredentialRefreshes() throws {
        let kit = try PollerTestKit(prefix: "refresh")
        // Keys that live 5 min + 1 s: each enters the refresh window a second after it is issued.
        let container = try FakeContainerCredentialsServer(path: "/creds", authorization: nil, lifetime: CredentialChain.refreshMargin + 1)
        defer { container.stop() }
        // The chain's clock, moved on by the test: keys enter their refresh window without waiting for it.
        let clock = Locked(Date())
        let chain = CredentialChain(environment: [
            "HOME": kit.directory.path, "AWS_EC2_METADATA_DISABLED": "true",
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": container.fullURI(path: "/creds"),
        ], now: { clock.current })
        let transport = RecordingTransport()
        let client = SQSClient(endpoint: kit.server.endpoint, region: TestClients.region, credentials: chain, transport: transport)
        let path = kit.dbPath
        let poller = Poller(
            client: client,
            configuration: PollerConfiguration(queueURLs: [kit.queueURL], concurrency: 2, waitSeconds: 1),
            makeStore: { try TimelineStore(path: path) })
        poller.start()
        var sent = 0
        for round in 0..<4 {
            try kit.send((0..<10).map { PollerTestKit.eventJSON(id: "r\(round)-\($0)", task: "t\(round)-\($0)", title: "x", second: $0) })
            sent += 10
            // At least: a message redelivered after its visibility timeout (a loaded machine) is stored once
            // and deleted twice, and an exact count could be passed over.
            _ = PollerTestKit.eventually(timeout: 30) { poller.status.stored == sent && poller.status.deleted >= sent }
            clock.withValue { $0 += 1.1 }  // the keys enter their refresh window
        }
        let status = poller.status
        #expect(poller.stop())
        #expect(status.stored == 40 && status.deleted >= 40, "status: \(status.summary)")
        if case .stopped = status.state { Issue.record("poller stopped: \(status.summary)") }
        #expect(container.keys.count >= 3)
        let signers = Set(transport.requests.compactMap { request -> String? in
            guard let auth = request.headers.value(for: "Authorization"), let range = auth.range(of: "Credential=") else { return nil }
            return String(auth[range.upperBound...].prefix { $0 != "/" })
        })
        #expect(signers.count >= 3, "\(signers)")
    }
}
