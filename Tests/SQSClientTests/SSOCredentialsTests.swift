import Foundation
import SQSClient
import TestSupport
import Testing

/// IAM Identity Center against a loopback portal and SSO-OIDC (`FakeSSOServer`).
@Suite struct SSOCredentialsTests {
    static let startURL = "https://my-company.awsapps.com/start"

    /// The file name the AWS CLI uses: SHA-1 of the session name or the legacy start URL.
    static func cacheFile(_ temp: TemporaryDirectory, key: String) throws -> String {
        let hex = String(decoding: try PythonRunner.run("import hashlib,sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())", arguments: [key]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(temp.url.path)/.aws/sso/cache/\(hex).json"
    }

    static func iso(_ date: Date) -> String { FakeKeyIssuer.iso8601(date) }

    func setUp(_ temp: TemporaryDirectory, server: FakeSSOServer) throws -> [String: String] {
        try temp.write(".aws/config", """
            [profile dev]
            sso_session = corp
            sso_account_id = 123456789012
            sso_role_name = Developer
            region = eu-west-1
            [sso-session corp]
            sso_start_url = \(Self.startURL)
            sso_region = eu-west-1
            sso_registration_scopes = sso:account:access
            [profile legacy]
            sso_start_url = \(Self.startURL)
            sso_region = us-east-1
            sso_account_id = 210987654321
            sso_role_name = ReadOnly
            """)
        return temp.environment([
            "AWS_PROFILE": "dev", "AWS_ENDPOINT_URL_SSO": server.url.absoluteString,
            "AWS_ENDPOINT_URL_SSO_OIDC": server.url.absoluteString,
        ])
    }

    func writeCache(_ path: String, _ object: [String: Any]) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    @Test func validCachedTokenGivesRoleCredentials() throws {
        let server = try FakeSSOServer(accessToken: "cached-token", refreshToken: "refresh-1")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        let environment = try setUp(temp, server: server)
        try writeCache(try Self.cacheFile(temp, key: "corp"), [
            "startUrl": Self.startURL, "region": "eu-west-1", "accessToken": "cached-token",
            "expiresAt": Self.iso(Date().addingTimeInterval(3600)),
        ])
        let credentials = try CredentialChain(environment: environment).credentials()
        #expect(credentials.accessKeyID == "ASIASSO0001")
        #expect(credentials.secretAccessKey == "sso-secret-123456789012-Developer")
        #expect(credentials.identity == "role Developer in account 123456789012")
        #expect(credentials.source.contains("IAM Identity Center"))
        #expect(credentials.expiration.map { $0 > Date() } == true)
        #expect(server.tokensIssued == 0)
        let request = try #require(server.server.requests.first)
        #expect(request.path == "/federation/credentials" && request.query("role_name") == "Developer")
    }

    @Test func expiredTokenIsRefreshedAndTheCacheWrittenBackPrivately() throws {
        let server = try FakeSSOServer(accessToken: "old-token", refreshToken: "refresh-1")
        server.revoke("old-token")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        let environment = try setUp(temp, server: server)
        let path = try Self.cacheFile(temp, key: "corp")
        try writeCache(path, [
            "startUrl": Self.startURL, "region": "eu-west-1", "accessToken": "old-token",
            "expiresAt": Self.iso(Date().addingTimeInterval(-60)), "clientId": server.clientID,
            "clientSecret": server.clientSecret, "registrationExpiresAt": Self.iso(Date().addingTimeInterval(86400)),
            "refreshToken": "refresh-1",
        ])
        chmod(path, 0o644)
        let credentials = try CredentialChain(environment: environment).credentials()
        #expect(credentials.accessKeyID == "ASIASSO0001")
        #expect(server.tokensIssued == 1)
        let cache = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(cache["accessToken"] as? String == "refreshed-access-token-1")
        #expect(cache["refreshToken"] as? String == "refreshed-refresh-token-1")
        #expect(cache["startUrl"] as? String == Self.startURL)  // the rest is kept
        let expiresAt = try #require(cache["expiresAt"] as? String)
        #expect(expiresAt.hasSuffix("Z") && expiresAt > Self.iso(Date().addingTimeInterval(3600)))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let createToken = try #require(server.server.requests.first { $0.path == "/token" })
        let body = try #require(try JSONSerialization.jsonObject(with: createToken.body) as? [String: Any])
        #expect(body["grantType"] as? String == "refresh_token")
    }

    @Test func expiredTokenThatCannotBeRefreshedSaysToLogIn() throws {
        let server = try FakeSSOServer(accessToken: "x", refreshToken: "good-refresh")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        let environment = try setUp(temp, server: server)
        let path = try Self.cacheFile(temp, key: "corp")
        try writeCache(path, [
            "startUrl": Self.startURL, "region": "eu-west-1", "accessToken": "old",
            "expiresAt": Self.iso(Date().addingTimeInterval(-60)), "clientId": server.clientID,
            "clientSecret": server.clientSecret, "refreshToken": "revoked-refresh",
        ])
        let refreshFailure = credentialsError { _ = try CredentialChain(environment: environment).credentials() }
        guard case .sso(.refreshFailed(profile: "dev", reason: .sso(.createTokenFailed(let summary))))? = refreshFailure else {
            Issue.record("expected a failed refresh, got \(String(describing: refreshFailure))")
            return
        }
        #expect(summary.contains("invalid_grant"))
        // No cache at all.
        try FileManager.default.removeItem(atPath: path)
        #expect(credentialsError { _ = try CredentialChain(environment: environment).credentials() }
            == .sso(.noCachedToken(profile: "dev", path: path)))
    }

    @Test func legacyStartURLProfileUsesTheStartURLCacheAndCannotRefresh() throws {
        let server = try FakeSSOServer(accessToken: "legacy-token", refreshToken: "r")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        var environment = try setUp(temp, server: server)
        environment["AWS_PROFILE"] = "legacy"
        let path = try Self.cacheFile(temp, key: Self.startURL)
        try writeCache(path, [
            "startUrl": Self.startURL, "region": "us-east-1", "accessToken": "legacy-token",
            "expiresAt": Self.iso(Date().addingTimeInterval(1800)),
        ])
        let credentials = try CredentialChain(environment: environment).credentials()
        #expect(credentials.identity == "role ReadOnly in account 210987654321")
        try writeCache(path, [
            "startUrl": Self.startURL, "region": "us-east-1", "accessToken": "legacy-token",
            "expiresAt": Self.iso(Date().addingTimeInterval(-1)),
        ])
        let expired = credentialsError { _ = try CredentialChain(environment: environment).credentials() }
        guard case .sso(.sessionExpired(profile: "legacy", at: _))? = expired else {
            Issue.record("expected an expired session, got \(String(describing: expired))")
            return
        }
    }

    @Test func portalRefusingTheTokenSaysToLogIn() throws {
        let server = try FakeSSOServer(accessToken: "server-knows-this", refreshToken: "r")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        let environment = try setUp(temp, server: server)
        try writeCache(try Self.cacheFile(temp, key: "corp"), [
            "startUrl": Self.startURL, "region": "eu-west-1", "accessToken": "revoked-by-admin",
            "expiresAt": Self.iso(Date().addingTimeInterval(3600)),
        ])
        let refused = credentialsError { _ = try CredentialChain(environment: environment).credentials() }
        guard case .sso(.tokenRefused(profile: "dev", let summary))? = refused else {
            Issue.record("expected the token refused, got \(String(describing: refused))")
            return
        }
        #expect(summary.contains("UnauthorizedException"))
    }

    @Test func incompleteSSOProfileNamesWhatIsMissing() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile half]\nsso_session = nowhere\nsso_account_id = 1\nsso_role_name = R\n")
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment(["AWS_PROFILE": "half"])).credentials() }
            == .profile("half", .ssoSessionMissing("nowhere", configPath: temp.url.path + "/.aws/config")))
    }
}
