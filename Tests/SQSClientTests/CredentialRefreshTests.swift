import Foundation
import SQSClient
import TestSupport
import Testing

/// Temporary credentials are refreshed ahead of expiry by one caller while the others keep signing.
@Suite struct CredentialRefreshTests {
    /// A container endpoint whose answers after the first wait until `release` is signalled.
    final class GatedContainer: @unchecked Sendable {
        let gate = DispatchSemaphore(value: 0)
        let issued = Locked(0)
        let expiration: Date
        var server: LoopbackHTTPServer!

        init(expiration: Date, failAfterFirst: Bool = false) throws {
            self.expiration = expiration
            server = try LoopbackHTTPServer { [unowned self] _ in
                let number = issued.withValue { $0 += 1; return $0 }
                if number > 1 {
                    gate.wait()
                    if failAfterFirst { return .respond(status: 500, headers: [], body: "down") }
                }
                return .respond(status: 200, headers: [], body: """
                    {"AccessKeyId":"ASIAGATE\(number)","SecretAccessKey":"s","Token":"t","Expiration":"\(FakeKeyIssuer.iso8601(expiration))"}
                    """)
            }
        }

        var uri: String { "http://127.0.0.1:\(server.port)/creds" }
    }

    @Test func callersKeepTheValidKeysWhileOneRefreshes() throws {
        let expiration = Date().addingTimeInterval(3600)
        let container = try GatedContainer(expiration: expiration)
        defer { container.gate.signal(); container.server.stop() }
        let clock = Clock(Date())
        let temp = try TemporaryDirectory()
        let chain = CredentialChain(environment: temp.environment(["AWS_CONTAINER_CREDENTIALS_FULL_URI": container.uri]), now: { clock.now })
        #expect(try chain.credentials().accessKeyID == "ASIAGATE1")

        clock.now = expiration.addingTimeInterval(-200)  // inside the 5-minute refresh window, not yet critical
        let refresher = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            refresher.withValue { $0 = try? chain.credentials().accessKeyID }
            done.signal()
        }.start()
        #expect(PollerWait.until { container.server.requests.count == 2 })  // the refresh is in flight
        // Another caller is not held up: it gets the still-valid keys while the refresh still waits.
        let other = Locked<String?>(nil)
        let otherDone = DispatchSemaphore(value: 0)
        Thread {
            other.withValue { $0 = try? chain.credentials().accessKeyID }
            otherDone.signal()
        }.start()
        let returned = otherDone.wait(timeout: .now() + 10) == .success  // a liveness bound, not a speed test
        #expect(returned, "a caller waited for the refresh")
        #expect(other.current == "ASIAGATE1")
        container.gate.signal()
        if !returned { otherDone.wait() }
        done.wait()
        #expect(refresher.current == "ASIAGATE2")
        #expect(try chain.credentials().accessKeyID == "ASIAGATE2")
    }

    @Test func aFailedEarlyRefreshKeepsTheValidKeysAndAnExpiredOneFails() throws {
        let expiration = Date().addingTimeInterval(3600)
        let container = try GatedContainer(expiration: expiration, failAfterFirst: true)
        defer { container.server.stop() }
        for _ in 0..<4 { container.gate.signal() }
        let clock = Clock(Date())
        let temp = try TemporaryDirectory()
        let chain = CredentialChain(environment: temp.environment(["AWS_CONTAINER_CREDENTIALS_FULL_URI": container.uri]), now: { clock.now })
        #expect(try chain.credentials().accessKeyID == "ASIAGATE1")
        clock.now = expiration.addingTimeInterval(-200)
        #expect(try chain.credentials().accessKeyID == "ASIAGATE1")  // refresh failed, keys still good
        #expect(try chain.credentials().accessKeyID == "ASIAGATE1")
        #expect(container.server.requests.count == 2)  // not retried on every call
        clock.now = expiration.addingTimeInterval(-30)  // too close to expiry to sign with
        let failure = credentialsError { _ = try chain.credentials() }
        guard case .container(.status(url: _, 500, excerpt: _))? = failure else {
            Issue.record("expected the endpoint's HTTP 500, got \(String(describing: failure))")
            return
        }
    }
}
