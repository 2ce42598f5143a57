import Foundation
import SQSClient
import SharedRules
import TestSupport
import Testing

/// Credential failures met with secrets at hand (keys, session tokens, bearer and refresh tokens, a
/// helper's stdout, an MFA code): neither the error's data nor its words hold any of them.
@Suite struct CredentialsErrorSecretsTests {
    static let keyID = "AKIASECRETKEYID00001"
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxSECRETKEY"
    static let sessionToken = "IQoJb3JpZ2luSECRETSESSIONTOKEN"
    static let bearer = "sso-bearer-SECRET-0001"
    static let refresh = "sso-refresh-SECRET-0001"
    static let clientSecret = "sso-client-SECRET-0001"
    static let webToken = "eyJhbGciOiSECRET.web.identity"
    static let authorization = "Bearer container-SECRET-0001"
    static let imdsToken = "imds-session-SECRET-0001"
    static let mfaCode = "SECRET-CODE-9"
    static let all = [keyID, secret, sessionToken, bearer, refresh, clientSecret, webToken, authorization, imdsToken, mfaCode]

    /// `error` holds and says no secret.
    static func checkClean(_ error: CredentialsError, _ scenario: String) {
        let dumped = everything(error) + "\n" + error.message
        for secret in all {
            #expect(!dumped.contains(secret), "\(scenario): \(secret) in \(dumped)")
        }
    }

    @Test func theCheckLooksAtDataTheWordsLeaveOut() {
        let error = CredentialsError.profile("kept-but-unsaid", .ssoSessionIncomplete("corp", configPath: "/c"))
        #expect(!error.message.contains("kept-but-unsaid"))
        #expect(everything(error).contains("kept-but-unsaid"))
    }

    /// The error of resolving `environment` through `transport`, checked clean and matched by `expected`.
    static func failure(
        _ scenario: String, _ environment: [String: String], transport: ScriptedTransport = ScriptedTransport { _ throws(TransportError) in
            throw TransportError(kind: .connect, message: "no network in this test")
        }, expected: (CredentialsError) -> Bool
    ) {
        let chain = CredentialChain(environment: environment, transport: transport, mfaCode: { _, _ throws(CredentialsError) in "123456" })
        do {
            _ = try chain.resolve()
            Issue.record("\(scenario): credentials were found")
        } catch {
            #expect(expected(error), "\(scenario): \(error)")
            checkClean(error, scenario)
        }
    }

    static func answer(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [], body: Array(body.utf8))
    }

    @Test func environmentHalves() throws {
        let temp = try TemporaryDirectory()
        Self.failure("secret only", temp.environment(["AWS_SECRET_ACCESS_KEY": Self.secret])) {
            $0 == .environmentSecretWithoutKeyID(profile: "default")
        }
        Self.failure("key id only", temp.environment(["AWS_ACCESS_KEY_ID": Self.keyID])) {
            $0 == .environmentKeyIDWithoutSecret(profile: "default")
        }
    }

    @Test func credentialProcessOutputs() throws {
        let temp = try TemporaryDirectory()
        let keys = "\"AccessKeyId\": \"\(Self.keyID)\", \"SecretAccessKey\": \"\(Self.secret)\", \"SessionToken\": \"\(Self.sessionToken)\""
        let outputs: [(String, CredentialsError.CredentialProcessProblem?)] = [
            ("not json \(Self.secret)", nil),
            ("{\"Version\": 2, \(keys)}", .versionMissing),
            ("{\"Version\": 1, \"SecretAccessKey\": \"\(Self.secret)\", \"SessionToken\": \"\(Self.sessionToken)\"}", .keysMissing),
            ("{\"Version\": 1, \(keys), \"Expiration\": \"soon\"}", .expirationInvalid("soon")),
            ("{\"Version\": 1, \(keys), \"Expiration\": \"2000-01-01T00:00:00Z\"}", .expired(at: Date(timeIntervalSince1970: 946_684_800))),
        ]
        for (index, (output, problem)) in outputs.enumerated() {
            let helper = try temp.write("helper-\(index)", "#!/bin/sh\ncat <<'EOF'\n\(output)\nEOF\n", executable: true)
            try temp.write(".aws/config", "[default]\ncredential_process = \(helper)\n")
            Self.failure("credential_process \(index)", temp.environment()) { error in
                guard case .credentialProcess("default", let found) = error else { return false }
                if let problem { return found == problem }
                if case .notJSON = found { return true }
                return false
            }
        }
        // A failing helper: its stderr is shown, its stdout never.
        let failing = try temp.write("failing", "#!/bin/sh\necho '{\"SecretAccessKey\": \"\(Self.secret)\"}'\necho 'no session' >&2\nexit 3\n", executable: true)
        try temp.write(".aws/config", "[default]\ncredential_process = \(failing)\n")
        Self.failure("credential_process failing", temp.environment()) {
            $0 == .credentialProcess(profile: "default", .failed(status: 3, stderr: "no session", next: .runYourself(command: failing)))
        }
        // A failing helper that echoes secrets to stderr: what it said is shown with them taken out.
        let echoing = try temp.write("echoing", """
            #!/bin/sh
            echo 'refresh failed: aws_access_key_id=\(Self.keyID)' >&2
            echo 'AWS_SECRET_ACCESS_KEY=\(Self.secret) AWS_SESSION_TOKEN=\(Self.sessionToken)' >&2
            echo 'Authorization: Bearer \(Self.bearer)' >&2
            exit 4

            """, executable: true)
        try temp.write(".aws/config", "[default]\ncredential_process = \(echoing)\n")
        Self.failure("credential_process echoing secrets", temp.environment()) { error in
            guard case .credentialProcess("default", .failed(status: 4, let said, _)) = error else { return false }
            return said.hasPrefix("refresh failed: aws_access_key_id=") && said.contains(SecretRedaction.marker)
        }
    }

    @Test func stsAnswers() throws {
        let temp = try TemporaryDirectory()
        let role = "arn:aws:iam::111111111111:role/r"
        try temp.write(".aws/config", """
            [profile base]
            aws_access_key_id = \(Self.keyID)
            aws_secret_access_key = \(Self.secret)
            aws_session_token = \(Self.sessionToken)
            [profile top]
            role_arn = \(role)
            source_profile = base
            mfa_serial = arn:aws:iam::1:mfa/me
            """)
        let tokenFile = try temp.write("token.jwt", Self.webToken)
        let credentials = "<AccessKeyId>\(Self.keyID)</AccessKeyId><SecretAccessKey>\(Self.secret)</SecretAccessKey>"
        let answers: [(HTTPResponse, CredentialsError.STSProblem)] = [
            (Self.answer(403, "<ErrorResponse><Error><Code>AccessDenied</Code><Message>no</Message></Error></ErrorResponse>"),
             .refused(code: "AccessDenied", message: "no")),
            (Self.answer(200, "<AssumeRoleResponse><AssumeRoleResult><Credentials>\(credentials)</Credentials></AssumeRoleResult></AssumeRoleResponse>"),
             .credentialsMissing),
            (Self.answer(200, "<R><Credentials>\(credentials)<SessionToken>\(Self.sessionToken)</SessionToken><Expiration>never</Expiration></Credentials></R>"),
             .expirationInvalid),
        ]
        for (index, (response, problem)) in answers.enumerated() {
            let transport = ScriptedTransport { _ throws(TransportError) in response }
            let sts = ["AWS_ENDPOINT_URL_STS": "http://sts.test"]
            Self.failure("AssumeRole \(index)", temp.environment(sts.merging(["AWS_PROFILE": "top"]) { $1 }), transport: transport) {
                $0 == .sts(.assumeRole(roleARN: role), problem)
            }
            Self.failure("AssumeRoleWithWebIdentity \(index)", temp.environment(sts.merging([
                "AWS_ROLE_ARN": role, "AWS_WEB_IDENTITY_TOKEN_FILE": tokenFile,
            ]) { $1 }), transport: transport) {
                $0 == .sts(.assumeRoleWithWebIdentity(roleARN: role), problem)
            }
        }
        let sts = STSClient(endpoint: URL(string: "http://sts.test")!, region: "us-east-1", transport: ScriptedTransport { _ throws(TransportError) in
            Self.answer(200, "<GetCallerIdentityResponse><GetCallerIdentityResult><UserId>\(Self.keyID)</UserId></GetCallerIdentityResult></GetCallerIdentityResponse>")
        })
        do {
            _ = try sts.callerIdentity(AWSCredentials(accessKeyID: Self.keyID, secretAccessKey: Self.secret, sessionToken: Self.sessionToken, source: "test"))
            Issue.record("an answer without Arn was accepted")
        } catch {
            #expect(error == .sts(.getCallerIdentity, .arnMissing))
            Self.checkClean(error, "GetCallerIdentity")
        }
    }

    @Test func anMFACodeIsNotKept() throws {
        let temp = try TemporaryDirectory()
        let serial = "arn:aws:iam::1:mfa/me"
        // A file standing in for the terminal: the prompt overwrites the blanks, the code follows it.
        let prompt = "Enter MFA code for \(serial): "
        let terminal = try temp.write("tty", String(repeating: " ", count: prompt.utf8.count) + Self.mfaCode + "\n")
        do {
            _ = try TerminalMFAPrompt.ask(profile: "top", serial: serial, terminal: terminal)
            Issue.record("a malformed MFA code was accepted")
        } catch {
            #expect(error == .mfa(profile: "top", serial: serial, .notSixDigits))
            Self.checkClean(error, "MFA code")
        }
    }

    @Test func ssoAnswersAndCaches() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile dev]
            sso_session = corp
            sso_account_id = 123456789012
            sso_role_name = Developer
            [sso-session corp]
            sso_start_url = https://corp.awsapps.com/start
            sso_region = eu-west-1
            """)
        let cache = try SSOCredentialsTests.cacheFile(temp, key: "corp")
        try FileManager.default.createDirectory(atPath: (cache as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        func writeCache(expiresIn: TimeInterval, refreshable: Bool = true) throws {
            var object: [String: Any] = ["accessToken": Self.bearer, "expiresAt": FakeKeyIssuer.iso8601(Date().addingTimeInterval(expiresIn))]
            if refreshable {
                object["refreshToken"] = Self.refresh
                object["clientId"] = "client"
                object["clientSecret"] = Self.clientSecret
            }
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: cache))
        }
        let environment = temp.environment([
            "AWS_PROFILE": "dev", "AWS_ENDPOINT_URL_SSO": "http://portal.test", "AWS_ENDPOINT_URL_SSO_OIDC": "http://oidc.test",
        ])
        let roleCredentials = "\"accessKeyId\": \"\(Self.keyID)\", \"secretAccessKey\": \"\(Self.secret)\", \"sessionToken\": \"\(Self.sessionToken)\""
        let portalAnswers: [(HTTPResponse, (CredentialsError.SSOProblem) -> Bool)] = [
            (Self.answer(401, "{\"message\": \"Session token not found or invalid\"}"), { if case .tokenRefused = $0 { true } else { false } }),
            (Self.answer(500, "{}"), { if case .roleCredentialsFailed = $0 { true } else { false } }),
            (Self.answer(200, "{\"roleCredentials\": {\(roleCredentials)}}"), { $0 == .roleCredentialsMissing }),
        ]
        try writeCache(expiresIn: 3600)
        for (index, (response, expected)) in portalAnswers.enumerated() {
            Self.failure("GetRoleCredentials \(index)", environment, transport: ScriptedTransport { _ throws(TransportError) in response }) {
                guard case .sso(let problem) = $0 else { return false }
                return expected(problem)
            }
        }
        // An expired token whose refresh fails: the refresh token and client secret stay out.
        let oidcAnswers: [(HTTPResponse, (CredentialsError.SSOProblem) -> Bool)] = [
            (Self.answer(400, "{\"error\": \"invalid_grant\"}"), { if case .createTokenFailed = $0 { true } else { false } }),
            (Self.answer(200, "{\"accessToken\": \"\(Self.bearer)\"}"), { $0 == .createTokenAnswerIncomplete }),
        ]
        try writeCache(expiresIn: -60)
        for (index, (response, expected)) in oidcAnswers.enumerated() {
            Self.failure("CreateToken \(index)", environment, transport: ScriptedTransport { _ throws(TransportError) in response }) {
                guard case .sso(.refreshFailed(profile: "dev", reason: .sso(let problem))) = $0 else { return false }
                return expected(problem)
            }
        }
        try writeCache(expiresIn: -60, refreshable: false)
        Self.failure("expired session", environment) {
            if case .sso(.sessionExpired(profile: "dev", at: _)) = $0 { true } else { false }
        }
        try JSONSerialization.data(withJSONObject: ["accessToken": Self.bearer]).write(to: URL(fileURLWithPath: cache))
        Self.failure("malformed cache", environment) { $0 == .sso(.cachedTokenMalformed(profile: "dev", path: cache)) }
    }

    @Test func containerAnswers() throws {
        let temp = try TemporaryDirectory()
        let url = "http://127.0.0.1:9/creds"
        let environment = temp.environment(["AWS_CONTAINER_CREDENTIALS_FULL_URI": url, "AWS_CONTAINER_AUTHORIZATION_TOKEN": Self.authorization])
        let keys = "\"AccessKeyId\": \"\(Self.keyID)\", \"SecretAccessKey\": \"\(Self.secret)\", \"Token\": \"\(Self.sessionToken)\""
        let provider = "container credentials (\(url))"
        let answers: [(HTTPResponse, CredentialsError)] = [
            (Self.answer(401, "denied"), .container(.status(url: url, 401, excerpt: "denied"))),
            (Self.answer(200, "{\"Code\": \"Failure\", \"Message\": \"no role\", \(keys)}"),
             .machineAnswer(provider: provider, .errorCode("Failure", message: "no role"))),
            (Self.answer(200, "{\"SecretAccessKey\": \"\(Self.secret)\", \"Token\": \"\(Self.sessionToken)\"}"),
             .machineAnswer(provider: provider, .keysMissing)),
            (Self.answer(200, "{\(keys), \"Expiration\": \"later\"}"), .machineAnswer(provider: provider, .expirationInvalid)),
            (Self.answer(200, "\(Self.secret) is not JSON"), .machineAnswer(provider: provider, .notJSON)),
        ]
        for (index, (response, expected)) in answers.enumerated() {
            Self.failure("container \(index)", environment, transport: ScriptedTransport { _ throws(TransportError) in response }) {
                $0 == expected
            }
        }
        Self.failure("container unreachable", environment) {
            $0 == .container(.unreachable(url: url, reason: "connect: no network in this test"))
        }
    }

    @Test func instanceMetadataAnswers() throws {
        let temp = try TemporaryDirectory()
        let endpoint = "http://imds.test"
        let environment = temp.environment(["AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": endpoint])
        let refusedRole = ScriptedTransport { call throws(TransportError) in
            call.request.method == "PUT" ? Self.answer(200, Self.imdsToken) : Self.answer(401, "")
        }
        Self.failure("IMDS role refused", environment, transport: refusedRole) {
            guard case .notFound(let search) = $0 else { return false }
            return search.instanceMetadata == .failed(.instanceMetadata(endpoint: endpoint, .refused(.roleName, status: 401)))
        }
        let failingCredentials = ScriptedTransport { call throws(TransportError) in
            if call.request.method == "PUT" { return Self.answer(200, Self.imdsToken) }
            return call.request.url.absoluteString.hasSuffix("/security-credentials/") ? Self.answer(200, "web\n") : Self.answer(500, Self.secret)
        }
        Self.failure("IMDS credentials failing", environment, transport: failingCredentials) {
            guard case .notFound(let search) = $0 else { return false }
            return search.instanceMetadata == .failed(.instanceMetadata(endpoint: endpoint, .roleCredentialsStatus(role: "web", status: 500)))
        }
    }
}
