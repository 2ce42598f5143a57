import Foundation
import SQSClient
import TestSupport
import Testing

/// STS AssumeRole and AssumeRoleWithWebIdentity against moto (which implements STS), reached
/// through AWS_ENDPOINT_URL_STS. A recording transport shows what was sent and signed with what.
@Suite(.serialized) struct AssumeRoleTests {
    static let roleA = "arn:aws:iam::111111111111:role/role-a"
    static let roleB = "arn:aws:iam::222222222222:role/role-b"

    func environment(_ temp: TemporaryDirectory, _ extra: [String: String] = [:]) throws -> [String: String] {
        let moto = try MotoServer.shared
        return temp.environment(["AWS_ENDPOINT_URL_STS": moto.endpoint.absoluteString].merging(extra) { $1 })
    }

    @Test func webIdentityFromTheEnvironment() throws {
        let temp = try TemporaryDirectory()
        let tokenFile = try temp.write("token.jwt", "eyJhbGciOi.fake.token\n")
        let transport = RecordingTransport()
        let chain = CredentialChain(environment: try environment(temp, [
            "AWS_ROLE_ARN": Self.roleA, "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile, "AWS_ROLE_SESSION_NAME": "ci-run",
        ]), region: "eu-west-1", transport: transport)
        let credentials = try chain.credentials()
        #expect(credentials.accessKeyID.hasPrefix("ASIA"))
        #expect(credentials.sessionToken?.isEmpty == false)
        #expect(credentials.expiration != nil)
        #expect(credentials.identity == "arn:aws:sts::111111111111:assumed-role/role-a/ci-run")
        #expect(credentials.source.contains("AWS_WEB_IDENTITY_TOKEN_FILE"))
        let body = try #require(transport.bodies(action: "AssumeRoleWithWebIdentity").first)
        #expect(body.contains("WebIdentityToken=eyJhbGciOi.fake.token&") || body.hasSuffix("WebIdentityToken=eyJhbGciOi.fake.token"))
        // Unsigned, as the SDKs send it.
        #expect(transport.requests.first?.headers.value(for: "Authorization") == nil)
    }

    @Test func missingWebIdentityTokenFileIsAClearError() throws {
        let temp = try TemporaryDirectory()
        let chain = CredentialChain(environment: try environment(temp, [
            "AWS_ROLE_ARN": Self.roleA, "AWS_WEB_IDENTITY_TOKEN_FILE": temp.url.path + "/nope.jwt",
        ]))
        #expect(credentialsError { _ = try chain.credentials() } == .webIdentityTokenUnreadable(
            file: temp.url.path + "/nope.jwt", origin: "AWS_ROLE_ARN and AWS_WEB_IDENTITY_TOKEN_FILE"))
    }

    @Test func roleChainSignsEachStepWithThePreviousKeysAndPassesEveryOption() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/credentials", "[base]\naws_access_key_id = AKIABASEKEY000000001\naws_secret_access_key = base-secret\n")
        try temp.write(".aws/config", """
            [profile middle]
            role_arn = \(Self.roleA)
            source_profile = base
            [profile top]
            role_arn = \(Self.roleB)
            source_profile = middle
            role_session_name = top-session
            external_id = ext-42
            duration_seconds = 1800
            mfa_serial = arn:aws:iam::111111111111:mfa/me
            """)
        let transport = RecordingTransport()
        let asked = Locked<[String]>([])
        let chain = CredentialChain(
            environment: try environment(temp, ["AWS_PROFILE": "top"]), region: "eu-west-1", transport: transport,
            mfaCode: { profile, serial in
                asked.withValue { $0.append("\(profile) \(serial)") }
                return "123456"
            })
        let started = Date()
        let credentials = try chain.credentials()
        #expect(credentials.identity == "arn:aws:sts::222222222222:assumed-role/role-b/top-session")
        #expect(credentials.source.contains("profile \"top\"") && credentials.source.contains("source_profile \"middle\""))
        #expect(asked.current == ["top arn:aws:iam::111111111111:mfa/me"])
        // duration_seconds reached STS: moto's expiry is now + the requested duration.
        let lifetime = try #require(credentials.expiration).timeIntervalSince(started)
        #expect(lifetime > 1700 && lifetime < 1900, "lifetime \(lifetime)")

        let calls = transport.requests.filter { String(decoding: $0.body, as: UTF8.self).contains("Action=AssumeRole&") }
        #expect(calls.count == 2)
        let first = String(decoding: calls[0].body, as: UTF8.self)
        let second = String(decoding: calls[1].body, as: UTF8.self)
        #expect(first.contains("RoleArn=\(URIEncodingForTests.encode(Self.roleA))"))
        #expect(second.contains("RoleArn=\(URIEncodingForTests.encode(Self.roleB))"))
        #expect(second.contains("ExternalId=ext-42") && second.contains("DurationSeconds=1800"))
        #expect(second.contains("SerialNumber=") && second.contains("TokenCode=123456") && second.contains("RoleSessionName=top-session"))
        // Step one is signed by the base keys for service sts in the regional scope; step two by step one's keys.
        let firstAuth = try #require(calls[0].headers.value(for: "Authorization"))
        #expect(firstAuth.contains("Credential=AKIABASEKEY000000001/") && firstAuth.contains("/eu-west-1/sts/aws4_request"))
        let secondAuth = try #require(calls[1].headers.value(for: "Authorization"))
        #expect(secondAuth.contains("Credential=ASIA"))
        #expect(calls[1].headers.value(for: "X-Amz-Security-Token") != nil)
    }

    @Test func roleChainLoopIsRefused() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile a]
            role_arn = \(Self.roleA)
            source_profile = b
            [profile b]
            role_arn = \(Self.roleB)
            source_profile = a
            """)
        let chain = CredentialChain(environment: try environment(temp, ["AWS_PROFILE": "a"]))
        #expect(credentialsError { _ = try chain.credentials() } == .profile("b", .roleChainLoops(["a", "b", "a"])))
    }

    @Test func profileCanBeItsOwnSourceWhenItHasKeys() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile self]
            aws_access_key_id = AKIASELFKEY000000001
            aws_secret_access_key = self-secret
            role_arn = \(Self.roleA)
            source_profile = self
            """)
        let credentials = try CredentialChain(environment: try environment(temp, ["AWS_PROFILE": "self"])).credentials()
        #expect(credentials.identity?.hasPrefix("arn:aws:sts::111111111111:assumed-role/role-a/") == true)
    }

    @Test func credentialSourceEnvironmentAndProfileWebIdentity() throws {
        let temp = try TemporaryDirectory()
        let tokenFile = try temp.write("token.jwt", "profile-token")
        try temp.write(".aws/config", """
            [profile envsource]
            role_arn = \(Self.roleA)
            credential_source = Environment
            [profile oidc]
            role_arn = \(Self.roleB)
            web_identity_token_file = \(tokenFile)
            role_session_name = oidc-session
            """)
        let transport = RecordingTransport()
        let fromEnvironment = CredentialChain(environment: try environment(temp, [
            "AWS_PROFILE": "envsource", "AWS_ACCESS_KEY_ID": "AKIAENVKEY0000000001", "AWS_SECRET_ACCESS_KEY": "env-secret",
        ]), transport: transport)
        // Environment keys come first in the chain; with them set, the profile is not read.
        #expect(try fromEnvironment.credentials().accessKeyID == "AKIAENVKEY0000000001")

        // A profile with credential_source = Environment, reached by --profile while the keys are exported
        // under the AWS_ names: the chain takes the keys first (SDK order); the profile's own path is shown
        // through ProfileCredentials when the keys are not exported, which fails clearly:
        let noKeys = CredentialChain(environment: try environment(temp, ["AWS_PROFILE": "envsource"]))
        #expect(credentialsError { _ = try noKeys.credentials() } == .profile("envsource", .credentialSourceEnvironmentUnset))

        let oidc = try CredentialChain(environment: try environment(temp, ["AWS_PROFILE": "oidc"]), transport: transport).credentials()
        #expect(oidc.identity == "arn:aws:sts::222222222222:assumed-role/role-b/oidc-session")
        #expect(transport.bodies(action: "AssumeRoleWithWebIdentity").first?.contains("WebIdentityToken=profile-token") == true)
    }

    @Test func credentialSourceFromInstanceMetadataAndContainer() throws {
        let imds = try FakeInstanceMetadataServer()
        defer { imds.stop() }
        let container = try FakeContainerCredentialsServer(path: "/v2/credentials/abc", authorization: nil)
        defer { container.stop() }
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile fromec2]
            role_arn = \(Self.roleA)
            credential_source = Ec2InstanceMetadata
            [profile fromecs]
            role_arn = \(Self.roleB)
            credential_source = EcsContainer
            """)
        let transport = RecordingTransport()
        let ec2 = try CredentialChain(environment: try environment(temp, [
            "AWS_PROFILE": "fromec2", "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.endpoint,
        ]), transport: transport).credentials()
        #expect(ec2.identity?.contains("role-a") == true)
        #expect(imds.keys.count == 1)
        let ecs = try CredentialChain(environment: try environment(temp, [
            "AWS_PROFILE": "fromecs", "AWS_CONTAINER_CREDENTIALS_FULL_URI": container.fullURI(path: "/v2/credentials/abc"),
        ]), transport: transport).credentials()
        #expect(ecs.identity?.contains("role-b") == true)
        #expect(container.keys.count == 1)
        let signers = transport.requests.compactMap { $0.headers.value(for: "Authorization") }
        #expect(signers.contains { $0.contains("Credential=ASIAIMDS0001/") })
        #expect(signers.contains { $0.contains("Credential=ASIACONT0001/") })
    }

    @Test func stsErrorsAndBadSettingsAreClear() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile nosource]
            role_arn = \(Self.roleA)
            [profile badsource]
            role_arn = \(Self.roleA)
            credential_source = Laptop
            [profile missingsource]
            role_arn = \(Self.roleA)
            source_profile = ghost
            [profile badduration]
            role_arn = \(Self.roleA)
            credential_source = Environment
            duration_seconds = forever
            """)
        func failure(_ profile: String, _ extra: [String: String] = [:]) throws -> CredentialsError? {
            let chain = CredentialChain(environment: try environment(temp, ["AWS_PROFILE": profile].merging(extra) { $1 }))
            return credentialsError { _ = try chain.resolve() }
        }
        let files = SharedConfigFiles(environment: try environment(temp))
        #expect(try failure("nosource") == .profile("nosource", .roleWithoutSource))
        #expect(try failure("badsource") == .profile("badsource", .credentialSourceUnknown("Laptop")))
        #expect(try failure("missingsource") == .profile("missingsource", .sourceProfileMissing(
            "ghost", configPath: files.configPath, credentialsPath: files.credentialsPath)))
        // Keys exported under other names would be taken first; profile-level errors need none exported.
        #expect(try failure("badduration") == .profile("badduration", .credentialSourceEnvironmentUnset))
        // A refusal from STS itself names the call and the code.
        let server = try LoopbackHTTPServer { _ in
            .respond(status: 403, headers: [("Content-Type", "text/xml")], body: """
                <ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User is not authorized to perform: sts:AssumeRole \u{1B}]0;pwned\u{07}</Message></Error><RequestId>1</RequestId></ErrorResponse>
                """)
        }
        defer { server.stop() }
        try temp.write(".aws/credentials", "[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = s\n")
        try temp.write(".aws/config", "[profile denied]\nrole_arn = \(Self.roleA)\nsource_profile = base\n")
        let denied = try failure("denied", ["AWS_ENDPOINT_URL_STS": server.url.absoluteString])
        guard case .sts(.assumeRole(roleARN: Self.roleA), .refused(code: "AccessDenied", let message))? = denied else {
            Issue.record("expected STS to refuse, got \(String(describing: denied))")
            return
        }
        #expect(message.hasPrefix("User is not authorized to perform: sts:AssumeRole"))
        #expect(denied?.message.contains("\u{1B}") == false)
    }

    @Test func mfaNeedIsDetectedThroughTheChainAndBlockedPromptsFailClearly() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile top]
            role_arn = \(Self.roleB)
            source_profile = mid
            [profile mid]
            role_arn = \(Self.roleA)
            source_profile = base
            mfa_serial = arn:aws:iam::1:mfa/me
            [profile base]
            aws_access_key_id = AKIABASE
            aws_secret_access_key = s
            [profile plain]
            role_arn = \(Self.roleA)
            source_profile = base
            """)
        #expect(CredentialChain(environment: temp.environment(["AWS_PROFILE": "top"])).asksForMFACode)
        #expect(!CredentialChain(environment: temp.environment(["AWS_PROFILE": "plain"])).asksForMFACode)
        #expect(!CredentialChain(environment: temp.environment(["AWS_PROFILE": "top", "AWS_ACCESS_KEY_ID": "K", "AWS_SECRET_ACCESS_KEY": "S"])).asksForMFACode)
        TerminalMFAPrompt.block("the TUI owns the terminal")
        defer { TerminalMFAPrompt.block(nil) }
        #expect(credentialsError { _ = try TerminalMFAPrompt.ask(profile: "top", serial: "arn:aws:iam::1:mfa/me") }
            == .mfa(profile: "top", serial: "arn:aws:iam::1:mfa/me", .cannotAskNow("the TUI owns the terminal")))
    }

    @Test func mfaWithoutATerminalFailsClearly() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/credentials", "[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = s\n")
        try temp.write(".aws/config", "[profile mfa]\nrole_arn = \(Self.roleA)\nsource_profile = base\nmfa_serial = arn:aws:iam::1:mfa/me\n")
        // The prompt reads the controlling terminal; a process without one cannot open it.
        let noTerminal = temp.url.path + "/no-such-tty"
        let chain = CredentialChain(
            environment: try environment(temp, ["AWS_PROFILE": "mfa"]),
            mfaCode: { profile, serial throws(CredentialsError) in
                try TerminalMFAPrompt.ask(profile: profile, serial: serial, terminal: noTerminal)
            })
        #expect(credentialsError { _ = try chain.credentials() } == .mfa(profile: "mfa", serial: "arn:aws:iam::1:mfa/me", .noTerminal))
    }
}

/// Percent-encoding as the form body uses it (the SigV4 rules).
enum URIEncodingForTests {
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
