import Foundation
import SQSClient
import TestSupport
import Testing

/// Container credentials and IMDSv2 against loopback fakes of their documented endpoints.
@Suite struct MachineCredentialsTests {
    @Test func containerFullURIWithTokenFile() throws {
        let server = try FakeContainerCredentialsServer(path: "/v1/credentials", authorization: "Bearer pod-identity-token")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        let tokenFile = try temp.write("eks-token", "Bearer pod-identity-token\n")
        let credentials = try CredentialChain(environment: temp.environment([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": server.fullURI(path: "/v1/credentials"),
            "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": tokenFile,
        ])).credentials()
        #expect(credentials.accessKeyID == "ASIACONT0001")
        #expect(credentials.sessionToken == "container-token")
        #expect(credentials.identity == "arn:aws:iam::123456789012:role/task-role")
        #expect(credentials.source.hasPrefix("container credentials"))
        #expect(server.server.requests.first?.header("Authorization") == "Bearer pod-identity-token")
    }

    @Test func containerErrorsAreClear() throws {
        let server = try FakeContainerCredentialsServer(path: "/creds", authorization: "right")
        defer { server.stop() }
        let temp = try TemporaryDirectory()
        func failure(_ environment: [String: String]) -> CredentialsError? {
            credentialsError { _ = try CredentialChain(environment: temp.environment(environment)).credentials() }
        }
        let wrongToken = failure([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": server.fullURI(path: "/creds"), "AWS_CONTAINER_AUTHORIZATION_TOKEN": "wrong",
        ])
        guard case .container(.status(url: server.fullURI(path: "/creds"), 401, excerpt: _))? = wrongToken else {
            Issue.record("expected HTTP 401, got \(String(describing: wrongToken))")
            return
        }
        #expect(failure(["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://example.com/creds"])
            == .container(.fullURIInsecure(host: "example.com")))
        let refused = try FreePort.find()
        let unanswered = failure(["AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(refused)/creds"])
        guard case .container(.unreachable(url: "http://127.0.0.1:\(refused)/creds", reason: _))? = unanswered else {
            Issue.record("expected no answer, got \(String(describing: unanswered))")
            return
        }
        #expect(failure([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": server.fullURI(path: "/creds"), "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": temp.url.path + "/none",
        ]) == .container(.authorizationTokenFileUnreadable(temp.url.path + "/none")))
    }

    @Test func instanceWithoutARoleSaysSo() throws {
        let imds = try LoopbackHTTPServer { request in
            request.method == "PUT" ? .respond(status: 200, headers: [], body: "tok") : .respond(status: 404, headers: [], body: "")
        }
        defer { imds.stop() }
        let temp = try TemporaryDirectory()
        let failure = credentialsError { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(imds.port)",
        ])).credentials() }
        #expect(failure?.instanceMetadataFailure == .instanceMetadata(endpoint: "http://127.0.0.1:\(imds.port)", .noRole))
    }

    @Test func instanceMetadataV2() throws {
        let imds = try FakeInstanceMetadataServer(role: "web-server")
        defer { imds.stop() }
        let temp = try TemporaryDirectory()
        let credentials = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": imds.endpoint,
        ])).credentials()
        #expect(credentials.accessKeyID == "ASIAIMDS0001")
        #expect(credentials.source.contains("role web-server"))
        #expect(imds.requestLines == [
            "PUT /latest/api/token", "GET /latest/meta-data/iam/security-credentials/",
            "GET /latest/meta-data/iam/security-credentials/web-server",
        ])
        #expect(imds.server.requests.first?.header("X-aws-ec2-metadata-token-ttl-seconds") == "21600")
    }

    @Test func instanceMetadataUnreachableOrDisabledEndsTheChainClearly() throws {
        let temp = try TemporaryDirectory()
        let refused = try FreePort.find()
        let unanswered = credentialsError { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(refused)",
        ])).credentials() }
        guard case .instanceMetadata(endpoint: "http://127.0.0.1:\(refused)", .unreachable(seconds: 1, reason: _))?
            = unanswered?.instanceMetadataFailure else {
            Issue.record("expected no answer from IMDS, got \(String(describing: unanswered))")
            return
        }
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment()).credentials() }?.search?.instanceMetadata
            == .disabled)
        // A server that only speaks IMDSv1 refuses the token: no fallback to v1.
        let v1Only = try LoopbackHTTPServer { request in
            request.method == "PUT" ? .respond(status: 403, headers: [], body: "") : .respond(status: 200, headers: [], body: "role")
        }
        defer { v1Only.stop() }
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(v1Only.port)",
        ])).credentials() }?.instanceMetadataFailure
            == .instanceMetadata(endpoint: "http://127.0.0.1:\(v1Only.port)", .refused(.sessionToken, status: 403)))
        #expect(v1Only.requests.count == 1)
    }

    @Test func chainOrderEnvironmentThenProfileThenContainer() throws {
        let container = try FakeContainerCredentialsServer(path: "/c", authorization: nil)
        defer { container.stop() }
        let temp = try TemporaryDirectory()
        try temp.write(".aws/credentials", "[default]\naws_access_key_id = AKIAPROFILE\naws_secret_access_key = s\n")
        let base = ["AWS_CONTAINER_CREDENTIALS_FULL_URI": container.fullURI(path: "/c")]
        #expect(try CredentialChain(environment: temp.environment(base)).credentials().accessKeyID == "AKIAPROFILE")
        try FileManager.default.removeItem(atPath: temp.url.path + "/.aws/credentials")
        #expect(try CredentialChain(environment: temp.environment(base)).credentials().accessKeyID == "ASIACONT0001")
        // A named profile that does not exist is an error, not a silent fall-through to the container.
        let typo = credentialsError { _ = try CredentialChain(environment: temp.environment(base.merging(["AWS_PROFILE": "typo"]) { $1 })).credentials() }
        #expect(typo?.search?.profile == "typo" && typo?.search?.instanceMetadata == nil)
    }
}
