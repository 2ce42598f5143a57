import Foundation
import Ingest
import SQSClient
import TestSupport
import Testing
import TimelineStore

/// `poll`'s path (settings resolved as the commands do, then the poller) with each kind of credentials
/// people have: an SSO profile, an assume-role profile, a container, an EC2 instance.
@Suite struct ProviderPollTests {
    /// Resolves settings for `profile` like the commands, polls the kit's queue, and returns the provider
    /// that signed, once two events are stored.
    func pollOnce(_ kit: PollerTestKit, environment: [String: String], profile: String? = nil) throws -> AWSCredentials {
        let configuration = try SQSConfiguration.resolve(
            flags: .init(queueURL: kit.queueURL, endpointURL: kit.server.endpoint.absoluteString, profile: profile),
            environment: environment)
        try kit.send((0..<2).map { PollerTestKit.eventJSON(id: "p\($0)-\(UUID().uuidString)", task: "t\($0)", title: "x", second: $0) })
        let path = kit.dbPath
        let poller = Poller(
            client: configuration.makeClient(),
            configuration: PollerConfiguration(queueURLs: [kit.queueURL], concurrency: 1, waitSeconds: 1),
            makeStore: { try TimelineStore(path: path) })
        poller.start()
        let stored = PollerTestKit.eventually { poller.status.stored == 2 }
        #expect(poller.stop())
        #expect(stored, "status: \(poller.status.summary)")
        return try configuration.credentials.credentials()
    }

    func baseEnvironment(_ kit: PollerTestKit, _ extra: [String: String]) throws -> [String: String] {
        let home = kit.directory.file("home")
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        return ["HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "AWS_EC2_METADATA_DISABLED": "true"].merging(extra) { $1 }
    }

    @Test func ssoProfile() throws {
        let kit = try PollerTestKit(prefix: "sso")
        let sso = try FakeSSOServer(accessToken: "cached", refreshToken: "r")
        defer { sso.stop() }
        let environment = try baseEnvironment(kit, [
            "AWS_ENDPOINT_URL_SSO": sso.url.absoluteString, "AWS_ENDPOINT_URL_SSO_OIDC": sso.url.absoluteString,
        ])
        let home = environment["HOME"]!
        try """
            [profile team]
            sso_session = corp
            sso_account_id = 123456789012
            sso_role_name = Viewer
            [sso-session corp]
            sso_start_url = https://corp.awsapps.com/start
            sso_region = us-east-1
            """.write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        let cacheName = try Self.sha1Hex("corp")
        try FileManager.default.createDirectory(atPath: home + "/.aws/sso/cache", withIntermediateDirectories: true)
        try #"{"accessToken":"cached","expiresAt":"2099-01-01T00:00:00Z","startUrl":"https://corp.awsapps.com/start","region":"us-east-1"}"#
            .write(toFile: home + "/.aws/sso/cache/\(cacheName).json", atomically: true, encoding: .utf8)
        let credentials = try pollOnce(kit, environment: environment, profile: "team")
        #expect(credentials.identity == "role Viewer in account 123456789012")
        #expect(sso.keys.count >= 1)
    }

    @Test func assumeRoleProfile() throws {
        let kit = try PollerTestKit(prefix: "role")
        let environment = try baseEnvironment(kit, ["AWS_ENDPOINT_URL_STS": kit.server.endpoint.absoluteString])
        let home = environment["HOME"]!
        try "[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = s\n"
            .write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8)
        try "[profile viewer]\nrole_arn = arn:aws:iam::123456789012:role/viewer\nsource_profile = base\nrole_session_name = tui\n"
            .write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        let credentials = try pollOnce(kit, environment: environment, profile: "viewer")
        #expect(credentials.identity == "arn:aws:sts::123456789012:assumed-role/viewer/tui")
    }

    @Test func containerAndInstance() throws {
        let kit = try PollerTestKit(prefix: "machine")
        let container = try FakeContainerCredentialsServer(path: "/task", authorization: "token")
        defer { container.stop() }
        let fromContainer = try pollOnce(kit, environment: try baseEnvironment(kit, [
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": container.fullURI(path: "/task"), "AWS_CONTAINER_AUTHORIZATION_TOKEN": "token",
        ]))
        #expect(fromContainer.source.hasPrefix("container credentials"))
        let imds = try FakeInstanceMetadataServer()
        defer { imds.stop() }
        let fromInstance = try pollOnce(kit, environment: try baseEnvironment(kit, [
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.endpoint,
        ]))
        #expect(fromInstance.source.hasPrefix("EC2 instance metadata"))
    }

    static func sha1Hex(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha1sum"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(40))
    }
}
