import TestSupport
import Foundation
import SQSClient
import Testing
import TestSupport

@Suite struct CredentialChainTests {
    static let secret = "SUPERSECRETvalue/with+chars1234567890abc"

    @Test func environmentVariablesComeFirst() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/credentials", "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = filesecret\n")
        let chain = CredentialChain(environment: temp.environment([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": Self.secret, "AWS_SESSION_TOKEN": "ENVTOKEN",
        ]))
        let credentials = try chain.credentials()
        #expect(credentials.accessKeyID == "ENVKEY")
        #expect(credentials.sessionToken == "ENVTOKEN")
        #expect(credentials.source == "environment variables")
    }

    @Test func halfSetEnvironmentIsAClearError() throws {
        let temp = try TemporaryDirectory()
        let chain = CredentialChain(environment: temp.environment(["AWS_ACCESS_KEY_ID": "ENVKEY"]))
        #expect(credentialsError { _ = try chain.credentials() } == .environmentKeyIDWithoutSecret(profile: "default"))
    }

    @Test func defaultProfileFromCredentialsFileWithCommentsAndCase() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/credentials", """
            # a comment
            ; another comment
              [default]
            AWS_Access_Key_ID   =   FILEKEY   # inline comment
            aws_secret_access_key=\(Self.secret)

            [other]
            aws_access_key_id = OTHERKEY
            aws_secret_access_key = othersecret
            """)
        let credentials = try CredentialChain(environment: temp.environment()).credentials()
        #expect(credentials.accessKeyID == "FILEKEY")
        #expect(credentials.secretAccessKey == Self.secret)
        #expect(credentials.source.contains(".aws/credentials"))
    }

    @Test func namedProfileFromAlternateFilesAndConfigSection() throws {
        let temp = try TemporaryDirectory()
        let credentialsPath = try temp.write("elsewhere/creds", "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = x\n")
        let configPath = try temp.write("elsewhere/config", """
            [default]
            region = us-west-2
            [profile dev]
            region = eu-central-1
            aws_access_key_id = DEVKEY
            aws_secret_access_key = devsecret
            aws_session_token = DEVTOKEN
            s3 =
              max_concurrent_requests = 20
            """)
        let environment = temp.environment([
            "AWS_PROFILE": "dev", "AWS_SHARED_CREDENTIALS_FILE": credentialsPath, "AWS_CONFIG_FILE": configPath,
        ])
        let chain = CredentialChain(environment: environment)
        let credentials = try chain.credentials()
        #expect(chain.profile == "dev")
        #expect(chain.profileSource == "AWS_PROFILE")
        #expect(credentials.accessKeyID == "DEVKEY")
        #expect(credentials.sessionToken == "DEVTOKEN")
        #expect(chain.profileRegion()?.region == "eu-central-1")
        // An explicit profile beats AWS_PROFILE.
        #expect(try CredentialChain(environment: environment, profile: "default").credentials().accessKeyID == "DEFAULTKEY")
    }

    @Test func nothingFoundSaysWhereItLookedAndHowToFix() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile other]\nregion = us-east-1\n")
        let chain = CredentialChain(environment: temp.environment(["AWS_PROFILE": "missing"]))
        #expect(credentialsError { _ = try chain.credentials() } == .notFound(CredentialSearch(
            profile: "missing", profileSource: "AWS_PROFILE",
            credentialsFile: .init(path: "\(temp.url.path)/.aws/credentials", state: .missing),
            configFile: .init(path: "\(temp.url.path)/.aws/config", state: .noSection("profile missing")),
            instanceMetadata: nil, unreadableNotes: [])))
    }

    @Test func credentialProcessIsRunParsedCachedAndRefreshed() throws {
        let temp = try TemporaryDirectory()
        let counter = temp.url.appendingPathComponent("runs").path
        let script = try temp.write("bin/creds.sh", """
            #!/bin/sh
            echo run >> '\(counter)'
            n=$(wc -l < '\(counter)' | tr -d ' ')
            printf '{"Version": 1, "AccessKeyId": "PROCKEY%s", "SecretAccessKey": "\(Self.secret)", "SessionToken": "PROCTOKEN", "Expiration": "2030-01-01T12:00:00Z"}' "$n"
            """, executable: true)
        try temp.write(".aws/config", "[profile proc]\ncredential_process = \(script) --some-arg\n")
        let clock = Clock(Date(timeIntervalSince1970: 1_893_499_200 - 3600))  // 2030-01-01T11:00:00Z
        let chain = CredentialChain(environment: temp.environment(["AWS_PROFILE": "proc"]), now: { clock.now })

        let first = try chain.credentials()
        #expect(first.accessKeyID == "PROCKEY1")
        #expect(first.sessionToken == "PROCTOKEN")
        #expect(first.expiration == Date(timeIntervalSince1970: 1_893_499_200))
        #expect(first.source.contains("credential_process"))
        // Cached while more than 5 minutes remain.
        clock.now = Date(timeIntervalSince1970: 1_893_499_200 - 301)
        #expect(try chain.credentials().accessKeyID == "PROCKEY1")
        // Refreshed within 5 minutes of expiry.
        clock.now = Date(timeIntervalSince1970: 1_893_499_200 - 299)
        #expect(try chain.credentials().accessKeyID == "PROCKEY2")
    }

    @Test func failingCredentialProcessReportsStderrAndSSOHint() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile work]
            sso_session = corp
            sso_account_id = 123456789012
            credential_process = sh -c 'echo "Error loading SSO Token: Token for corp is expired" >&2; exit 255'
            """)
        let chain = CredentialChain(environment: temp.environment(["AWS_PROFILE": "work"]))
        #expect(credentialsError { _ = try chain.credentials() } == .credentialProcess(profile: "work", .failed(
            status: 255, stderr: "Error loading SSO Token: Token for corp is expired", next: .ssoLogin)))
    }

    @Test func malformedProcessOutputIsNotEchoed() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[default]\ncredential_process = echo 'not json \(Self.secret)'\n")
        do {
            _ = try CredentialChain(environment: temp.environment()).credentials()
            Issue.record("malformed output was accepted")
        } catch {
            guard case .credentialProcess("default", .notJSON) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!everything(error).contains(Self.secret) && !error.message.contains(Self.secret))
        }
    }

    @Test func credentialsErrorsReachSQSErrorsWithoutSecrets() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[default]\ncredential_process = echo '{\"Version\": 2, \"AccessKeyId\": \"K\", \"SecretAccessKey\": \"\(Self.secret)\"}'\n")
        let client = SQSClient(
            endpoint: URL(string: "http://127.0.0.1:9")!, region: "us-east-1",
            credentials: CredentialChain(environment: temp.environment()))
        do {
            _ = try client.sendMessage(queueURL: "q", body: "x")
            Issue.record("a call without credentials succeeded")
        } catch {
            #expect(error.kind == .auth)
            #expect(error.code == "CredentialsUnavailable")
            #expect(error.message.contains("Version"))
            #expect(!"\(error)".contains(Self.secret))
        }
    }
}

/// A settable clock for expiry tests.
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ value: Date) { self.value = value }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

@Suite struct CredentialInvalidationTests {
    @Test func expiredTokenAnswerMakesTheChainRunTheProcessAgain() throws {
        let temp = try TemporaryDirectory()
        let counter = temp.url.appendingPathComponent("runs").path
        let script = try temp.write("creds.sh", """
            #!/bin/sh
            echo run >> '\(counter)'
            printf '{"Version": 1, "AccessKeyId": "K%s", "SecretAccessKey": "s"}' "$(wc -l < '\(counter)' | tr -d ' ')"
            """, executable: true)
        try temp.write(".aws/config", "[default]\ncredential_process = \(script)\n")
        let chain = CredentialChain(environment: temp.environment())
        let server = try LoopbackHTTPServer { _ in
            .respond(status: 400, headers: [], body: #"{"__type":"com.amazon.coral.service#ExpiredTokenException","message":"The security token included in the request is expired"}"#)
        }
        defer { server.stop() }
        let client = SQSClient(endpoint: server.url, region: "us-east-1", credentials: chain)
        #expect(throws: SQSError.self) { _ = try client.sendMessage(queueURL: "q", body: "x") }
        #expect(throws: SQSError.self) { _ = try client.sendMessage(queueURL: "q", body: "x") }
        let heads = server.requests.map(\.head)
        #expect(heads.count == 2)
        #expect(heads.first?.contains("Credential=K1/") == true)
        #expect(heads.last?.contains("Credential=K2/") == true)
    }
}
