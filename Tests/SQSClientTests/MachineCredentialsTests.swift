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
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": server.fullURI(path: "/creds"), "AWS_CONTAINER_AUTHORIZATION_TOKEN": "wrong",
        ])).credentials() } throws: { error in "\(error)".contains("answered HTTP 401") }
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://example.com/creds",
        ])).credentials() } throws: { error in "\(error)".contains("must be https, or http on loopback") }
        let refused = try FreePort.find()
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": "http://127.0.0.1:\(refused)/creds",
        ])).credentials() } throws: { error in "\(error)".contains("The container credential endpoint http://127.0.0.1:\(refused)/creds did not answer") }
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": server.fullURI(path: "/creds"), "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE": temp.url.path + "/none",
        ])).credentials() } throws: { error in "\(error)".contains("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \(temp.url.path)/none cannot be read") }
    }

    @Test func instanceWithoutARoleSaysSo() throws {
        let imds = try LoopbackHTTPServer { request in
            request.method == "PUT" ? .respond(status: 200, headers: [], body: "tok") : .respond(status: 404, headers: [], body: "")
        }
        defer { imds.stop() }
        let temp = try TemporaryDirectory()
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(imds.port)",
        ])).credentials() } throws: { error in "\(error)".contains("names no IAM role: attach an instance profile") }
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
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(refused)",
        ])).credentials() } throws: { error in
            "\(error)".contains("No AWS credentials found") && "\(error)".contains("EC2 instance metadata (The EC2 instance metadata service at http://127.0.0.1:\(refused) did not answer")
        }
        #expect { _ = try CredentialChain(environment: temp.environment()).credentials() } throws: { error in
            "\(error)".contains("EC2 instance metadata (skipped: AWS_EC2_METADATA_DISABLED=true)")
        }
        // A server that only speaks IMDSv1 refuses the token: no fallback to v1.
        let v1Only = try LoopbackHTTPServer { request in
            request.method == "PUT" ? .respond(status: 403, headers: [], body: "") : .respond(status: 200, headers: [], body: "role")
        }
        defer { v1Only.stop() }
        #expect { _ = try CredentialChain(environment: temp.environment([
            "AWS_EC2_METADATA_DISABLED": "false", "AWS_EC2_METADATA_SERVICE_ENDPOINT": "http://127.0.0.1:\(v1Only.port)",
        ])).credentials() } throws: { error in "\(error)".contains("refused a session token (HTTP 403; IMDSv2 only)") }
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
        #expect { _ = try CredentialChain(environment: temp.environment(base.merging(["AWS_PROFILE": "typo"]) { $1 })).credentials() } throws: { error in
            "\(error)".contains("No AWS credentials found for profile \"typo\"")
        }
    }
}
