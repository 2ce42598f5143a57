import Foundation
import Synchronization

/// Credentials a fake endpoint hands out; each call to `next()` numbers the key (`ASIAFAKE0001`, …)
/// so tests can tell fetches apart.
public final class FakeKeyIssuer: Sendable {
    private struct Issuing {
        var issued = 0
        var lifetime: TimeInterval
    }
    private let issuing: Mutex<Issuing>
    /// How long the keys handed out from now on live.
    public var lifetime: TimeInterval {
        get { issuing.withLock { $0.lifetime } }
        set { issuing.withLock { $0.lifetime = newValue } }
    }
    public let prefix: String

    public init(prefix: String, lifetime: TimeInterval = 3600) {
        self.prefix = prefix
        issuing = Mutex(Issuing(lifetime: lifetime))
    }

    /// How many keys were handed out.
    public var count: Int { issuing.withLock { $0.issued } }

    /// The next key id and its expiry.
    public func next() -> (keyID: String, expiration: Date) {
        issuing.withLock { issuing in
            issuing.issued += 1
            return (prefix + String(format: "%04d", issuing.issued), Date().addingTimeInterval(issuing.lifetime))
        }
    }

    public static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// IAM Identity Center on loopback, following AWS's documented wire formats:
/// the portal's `GetRoleCredentials` (`GET /federation/credentials?account_id=&role_name=` with
/// `x-amz-sso_bearer_token`, answering `{"roleCredentials": {…, "expiration": epoch ms}}`) and
/// SSO-OIDC `CreateToken` (`POST /token`, JSON, `grantType` `refresh_token`). Point
/// `AWS_ENDPOINT_URL_SSO` and `AWS_ENDPOINT_URL_SSO_OIDC` at `url`.
public final class FakeSSOServer: Sendable {
    public let server: LoopbackHTTPServer
    public let keys = FakeKeyIssuer(prefix: "ASIASSO")
    private struct Tokens {
        var valid: Set<String>
        var refresh: Set<String>
        var issued = 0
    }
    private let tokens: Mutex<Tokens>
    public let clientID: String
    public let clientSecret: String

    /// `accessToken` is accepted by the portal; `refreshToken` + the client id/secret by CreateToken.
    public init(accessToken: String, refreshToken: String, clientID: String = "fake-client", clientSecret: String = "fake-client-secret") throws {
        tokens = Mutex(Tokens(valid: [accessToken], refresh: [refreshToken]))
        self.clientID = clientID
        self.clientSecret = clientSecret
        let holder = WeakBox()
        server = try LoopbackHTTPServer { request in holder.value?.answer(request) ?? .drop }
        holder.value = self
    }

    public var url: URL { server.url }
    /// How many CreateToken calls succeeded.
    public var tokensIssued: Int { tokens.withLock { $0.issued } }
    /// Stops accepting an access token (as when it expires or is revoked).
    public func revoke(_ token: String) { _ = tokens.withLock { $0.valid.remove(token) } }
    public func stop() { server.stop() }

    /// Lets the server's handler reach this object without keeping it alive.
    private final class WeakBox: Sendable {
        private struct Reference { weak var value: FakeSSOServer? }
        private let reference = Mutex(Reference())
        var value: FakeSSOServer? {
            get { reference.withLock { $0.value } }
            set { reference.withLock { $0.value = newValue } }
        }
    }

    private func answer(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Action {
        let json = [("Content-Type", "application/json")]
        switch (request.method, request.path) {
        case ("GET", "/federation/credentials"):
            guard let token = request.header("x-amz-sso_bearer_token"), tokens.withLock({ $0.valid.contains(token) }) else {
                return .respond(status: 401, headers: json + [("x-amzn-ErrorType", "UnauthorizedException")],
                                body: #"{"message":"Session token not found or invalid"}"#)
            }
            guard let account = request.query("account_id"), let role = request.query("role_name") else {
                return .respond(status: 400, headers: json, body: #"{"message":"account_id and role_name are required"}"#)
            }
            let key = keys.next()
            let millis = Int64(key.expiration.timeIntervalSince1970 * 1000)
            return .respond(status: 200, headers: json, body: """
                {"roleCredentials":{"accessKeyId":"\(key.keyID)","secretAccessKey":"sso-secret-\(account)-\(role)","sessionToken":"sso-session-token","expiration":\(millis)}}
                """)
        case ("POST", "/token"):
            guard let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any],
                  body["grantType"] as? String == "refresh_token",
                  body["clientId"] as? String == clientID, body["clientSecret"] as? String == clientSecret,
                  let refresh = body["refreshToken"] as? String, tokens.withLock({ $0.refresh.contains(refresh) })
            else {
                return .respond(status: 400, headers: json, body: #"{"error":"invalid_grant","error_description":"Invalid refresh token provided"}"#)
            }
            let (access, newRefresh) = tokens.withLock { tokens -> (String, String) in
                tokens.issued += 1
                let access = "refreshed-access-token-\(tokens.issued)"
                let newRefresh = "refreshed-refresh-token-\(tokens.issued)"
                tokens.valid.insert(access)
                tokens.refresh.remove(refresh)
                tokens.refresh.insert(newRefresh)
                return (access, newRefresh)
            }
            return .respond(status: 200, headers: json, body: """
                {"accessToken":"\(access)","expiresIn":28800,"refreshToken":"\(newRefresh)","tokenType":"Bearer"}
                """)
        default:
            return .respond(status: 404, headers: json, body: #"{"message":"not found"}"#)
        }
    }
}

/// The ECS / EKS Pod Identity container credential endpoint on loopback: `GET <path>` with the
/// `Authorization` header equal to `authorization` (when set), answering
/// `{"AccessKeyId", "SecretAccessKey", "Token", "Expiration", "RoleArn"}`.
public final class FakeContainerCredentialsServer: Sendable {
    public let server: LoopbackHTTPServer
    public let keys: FakeKeyIssuer

    public init(path: String, authorization: String?, roleARN: String = "arn:aws:iam::123456789012:role/task-role", lifetime: TimeInterval = 3600) throws {
        let keys = FakeKeyIssuer(prefix: "ASIACONT", lifetime: lifetime)
        self.keys = keys
        server = try LoopbackHTTPServer { request in
            guard request.method == "GET", request.path == path else {
                return .respond(status: 404, headers: [], body: "not found")
            }
            if let authorization, request.header("Authorization") != authorization {
                return .respond(status: 401, headers: [], body: #"{"Code":"Unauthorized","Message":"bad authorization token"}"#)
            }
            let key = keys.next()
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: """
                {"AccessKeyId":"\(key.keyID)","SecretAccessKey":"container-secret","Token":"container-token","Expiration":"\(FakeKeyIssuer.iso8601(key.expiration))","RoleArn":"\(roleARN)"}
                """)
        }
    }

    /// The full URI for `AWS_CONTAINER_CREDENTIALS_FULL_URI`.
    public func fullURI(path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }
    public func stop() { server.stop() }
}

/// EC2 instance metadata on loopback, IMDSv2 as documented: `PUT /latest/api/token` with
/// `X-aws-ec2-metadata-token-ttl-seconds` gives a token; metadata requests without a valid
/// `X-aws-ec2-metadata-token` get 401 (so an IMDSv1 client fails); the role name at
/// `/latest/meta-data/iam/security-credentials/` and its JSON credentials below it.
public final class FakeInstanceMetadataServer: Sendable {
    public let server: LoopbackHTTPServer
    public let keys = FakeKeyIssuer(prefix: "ASIAIMDS")
    public let role: String

    public init(role: String = "instance-role") throws {
        self.role = role
        let keys = self.keys
        let token = "imds-token-\(UUID().uuidString)"
        server = try LoopbackHTTPServer { request in
            if request.method == "PUT", request.path == "/latest/api/token" {
                guard let ttl = request.header("X-aws-ec2-metadata-token-ttl-seconds").flatMap(Int.init), (1...21600).contains(ttl) else {
                    return .respond(status: 400, headers: [], body: "")
                }
                return .respond(status: 200, headers: [("X-aws-ec2-metadata-token-ttl-seconds", String(ttl))], body: token)
            }
            guard request.method == "GET" else { return .respond(status: 405, headers: [], body: "") }
            guard request.header("X-aws-ec2-metadata-token") == token else { return .respond(status: 401, headers: [], body: "") }
            switch request.path {
            case "/latest/meta-data/iam/security-credentials/":
                return .respond(status: 200, headers: [], body: role)
            case "/latest/meta-data/iam/security-credentials/\(role)":
                let key = keys.next()
                return .respond(status: 200, headers: [("Content-Type", "text/plain")], body: """
                    {"Code":"Success","LastUpdated":"\(FakeKeyIssuer.iso8601(Date()))","Type":"AWS-HMAC","AccessKeyId":"\(key.keyID)","SecretAccessKey":"imds-secret","Token":"imds-token","Expiration":"\(FakeKeyIssuer.iso8601(key.expiration))"}
                    """)
            default:
                return .respond(status: 404, headers: [], body: "")
            }
        }
    }

    /// The endpoint for `AWS_EC2_METADATA_SERVICE_ENDPOINT`.
    public var endpoint: String { "http://127.0.0.1:\(server.port)" }
    /// The requests it received, as `METHOD path`.
    public var requestLines: [String] { server.requests.map { "\($0.method) \($0.path)" } }
    public func stop() { server.stop() }
}
