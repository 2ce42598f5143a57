import Foundation
import SigV4
import Testing
@testable import SQSClient

@Suite("Credential file cache")
struct CredentialFileCacheTests {
    final class CountingProvider: CredentialsProvider, @unchecked Sendable {
        let lock = NSLock()
        var calls = 0
        let expiration: Date?
        init(expiration: Date?) { self.expiration = expiration }
        func credentials() throws(CredentialsError) -> AWSCredentials {
            let call = lock.withLock { calls += 1; return calls }
            return AWSCredentials(accessKeyID: "ASIA\(call)", secretAccessKey: "secret-\(call)", sessionToken: "token-\(call)",
                                  expiration: expiration, source: "profile sso")
        }
    }

    func cachedFiles(_ dir: URL) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    }

    func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("credcache-\(UUID())/cache")
    }

    @Test func temporaryCredentialsAreReusedAcrossRunsUntilFiveMinutesBeforeExpiry() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let provider = CountingProvider(expiration: start.addingTimeInterval(3_600))
        func run(at time: Date) throws -> AWSCredentials {
            // A new cache object per run, as each hook process makes one.
            try CredentialFileCache(wrapping: provider, directory: dir, identity: "sso-dev", bypass: false, now: { time })
                .credentials()
        }
        #expect(try run(at: start).accessKeyID == "ASIA1")
        let again = try run(at: start.addingTimeInterval(3_000))
        #expect(again.accessKeyID == "ASIA1" && again.sessionToken == "token-1" && provider.calls == 1)
        #expect(try run(at: start.addingTimeInterval(3_301)).accessKeyID == "ASIA2", "refreshed 5 min before expiry")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(files.count == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(files[0]).path)[.posixPermissions] as? NSNumber
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600 && dirMode?.intValue == 0o700)
    }

    @Test func staticAndEnvironmentKeysAreNeverWritten() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let staticKeys = CountingProvider(expiration: nil)
        _ = try CredentialFileCache(wrapping: staticKeys, directory: dir, identity: "p", bypass: false).credentials()
        let temporary = CountingProvider(expiration: Date().addingTimeInterval(3_600))
        _ = try CredentialFileCache(wrapping: temporary, directory: dir, identity: "p", bypass: true).credentials()
        #expect(cachedFiles(dir).isEmpty)
        let chain = CredentialChain(environment: ["AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "x"])
        _ = try CredentialFileCache(chain: chain, directory: dir).credentials()
        #expect(cachedFiles(dir).isEmpty)
    }

    @Test func invalidateDropsTheFile() throws {
        let dir = directory()
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let provider = CountingProvider(expiration: Date().addingTimeInterval(3_600))
        let cache = CredentialFileCache(wrapping: provider, directory: dir, identity: "p", bypass: false)
        _ = try cache.credentials()
        cache.invalidate()
        #expect(try cache.credentials().accessKeyID == "ASIA2")
    }
}
