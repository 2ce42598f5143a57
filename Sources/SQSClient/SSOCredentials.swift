import Foundation
import SharedRules
import SigV4
import StrictJSON

/// IAM Identity Center (SSO) credentials for a profile, as the AWS CLI does: read the token that
/// `aws sso login` cached in `~/.aws/sso/cache/<sha1>.json`, refresh it through SSO-OIDC
/// `CreateToken` when it is (nearly) expired and write the cache back (0600), then call the portal's
/// `GetRoleCredentials`. Works with `sso_session` sections and the legacy `sso_start_url` form
/// (the legacy form cannot refresh).
struct SSOCredentials {
    /// Refresh the token this long before it expires (the AWS CLI's window).
    static let tokenRefreshWindow: TimeInterval = 15 * 60
    static let timeout: TimeInterval = 30

    var profile: String
    var accountID: String
    var roleName: String
    var startURL: String
    var region: String
    /// The `sso_session` name; nil for the legacy form.
    var sessionName: String?
    var cacheDirectory: String
    var endpoints: ServiceEndpoints
    var transport: any HTTPTransport
    var now: @Sendable () -> Date

    /// The cache file the AWS CLI uses: SHA-1 of the session name (or of the start URL, legacy).
    var cachePath: String {
        let key = sessionName ?? startURL
        return "\(cacheDirectory)/\(Digest.hex(Digest.sha1(Array(key.utf8)))).json"
    }

    func fetch() throws(CredentialsError) -> AWSCredentials {
        let token = try accessToken()
        let portal: URL
        do {
            portal = try endpoints.endpoint(for: .sso, region: region).value
        } catch {
            throw CredentialsError.serviceEndpoint(error.message)
        }
        var components = URLComponents(url: portal.appendingPathComponent("federation/credentials"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "account_id", value: accountID), URLQueryItem(name: "role_name", value: roleName)]
        let request = HTTPRequest(method: "GET", url: components.url!, headers: [HTTPHeader("x-amz-sso_bearer_token", token)])
        let response = try send(request, what: "GetRoleCredentials")
        if response.status == 401 || response.status == 403 {
            throw CredentialsError.sso(.tokenRefused(profile: profile, summary: Self.errorSummary(response)))
        }
        guard (200..<300).contains(response.status) else {
            throw CredentialsError.sso(.roleCredentialsFailed(role: roleName, account: accountID, summary: Self.errorSummary(response)))
        }
        guard let object = JSONReader.object(from: response.body), let role = object["roleCredentials"] as? [String: Any],
              let keyID = role["accessKeyId"] as? String, !keyID.isEmpty,
              let secret = role["secretAccessKey"] as? String, !secret.isEmpty,
              let expirationMillis = (role["expiration"] as? NSNumber)?.doubleValue
        else {
            throw CredentialsError.sso(.roleCredentialsMissing)
        }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: role["sessionToken"] as? String,
            expiration: Date(timeIntervalSince1970: expirationMillis / 1000),
            source: "IAM Identity Center (SSO) for profile \"\(profile)\"",
            identity: "role \(roleName) in account \(accountID)")
    }

    /// A valid access token from the cache, refreshed (and written back) when needed.
    func accessToken() throws(CredentialsError) -> String {
        let path = cachePath
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CredentialsError.sso(.noCachedToken(profile: profile, path: path))
        }
        guard var cache = JSONReader.object(from: [UInt8](data)),
              let token = cache["accessToken"] as? String, !token.isEmpty,
              let expiresText = cache["expiresAt"] as? String, let expiresAt = CredentialProcess.parseISO8601(expiresText)
        else {
            throw CredentialsError.sso(.cachedTokenMalformed(profile: profile, path: path))
        }
        let current = now()
        if current < expiresAt.addingTimeInterval(-Self.tokenRefreshWindow) { return token }
        let stillValid = current < expiresAt
        guard sessionName != nil, let refreshToken = cache["refreshToken"] as? String,
              let clientID = cache["clientId"] as? String, let clientSecret = cache["clientSecret"] as? String
        else {
            if stillValid { return token }
            throw CredentialsError.sso(.sessionExpired(profile: profile, at: expiresAt))
        }
        if let registrationText = cache["registrationExpiresAt"] as? String,
           let registrationExpires = CredentialProcess.parseISO8601(registrationText), current >= registrationExpires {
            if stillValid { return token }
            throw CredentialsError.sso(.registrationExpired(profile: profile, at: registrationExpires))
        }
        do {
            let refreshed = try createToken(clientID: clientID, clientSecret: clientSecret, refreshToken: refreshToken)
            cache["accessToken"] = refreshed.accessToken
            cache["expiresAt"] = Self.format(current.addingTimeInterval(refreshed.expiresIn))
            if let newRefresh = refreshed.refreshToken { cache["refreshToken"] = newRefresh }
            try Self.writeCache(cache, to: path)
            return refreshed.accessToken
        } catch {
            if stillValid { return token }
            throw CredentialsError.sso(.refreshFailed(profile: profile, reason: error))
        }
    }

    /// SSO-OIDC `CreateToken` with the refresh token (unsigned JSON).
    func createToken(clientID: String, clientSecret: String, refreshToken: String) throws(CredentialsError) -> (accessToken: String, expiresIn: TimeInterval, refreshToken: String?) {
        let oidc: URL
        do {
            oidc = try endpoints.endpoint(for: .ssoOIDC, region: region).value
        } catch {
            throw CredentialsError.serviceEndpoint(error.message)
        }
        guard let body = JSONWriter.encode([
            "clientId": clientID, "clientSecret": clientSecret, "grantType": "refresh_token", "refreshToken": refreshToken,
        ]) else { throw CredentialsError.sso(.createTokenUnencodable) }
        let request = HTTPRequest(
            method: "POST", url: oidc.appendingPathComponent("token"),
            headers: [HTTPHeader("Content-Type", "application/json")], body: body)
        let response = try send(request, what: "CreateToken")
        guard (200..<300).contains(response.status) else {
            throw CredentialsError.sso(.createTokenFailed(summary: Self.errorSummary(response)))
        }
        guard let object = JSONReader.object(from: response.body), let accessToken = object["accessToken"] as? String,
              !accessToken.isEmpty, let expiresIn = (object["expiresIn"] as? NSNumber)?.doubleValue
        else {
            throw CredentialsError.sso(.createTokenAnswerIncomplete)
        }
        return (accessToken, expiresIn, object["refreshToken"] as? String)
    }

    private func send(_ request: HTTPRequest, what: String) throws(CredentialsError) -> HTTPResponse {
        do {
            var request = request
            request.responseLimit = .sso
            return try transport.send(request, timeout: Self.timeout, cancel: HelperRegistry.shared.shutdown)
        } catch {
            throw CredentialsError.sso(.unreachable(call: what, host: request.url.host ?? "?", reason: error.description))
        }
    }

    /// Writes the cache as the AWS CLI does: JSON, mode 0600, replaced atomically.
    static func writeCache(_ cache: [String: Any], to path: String) throws(CredentialsError) {
        guard let data = JSONWriter.encode(cache) else {
            throw CredentialsError.sso(.cacheUnencodable)
        }
        let temporary = "\(path).\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CredentialsError.sso(.cacheUnwritable(path: path, reason: String(cString: strerror(errno))))
        }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fchmod(descriptor, 0o600)
        close(descriptor)
        guard written == data.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CredentialsError.sso(.cacheUnwritable(path: path, reason: nil))
        }
    }

    /// `2026-11-23T20:00:00Z`, the CLI's format.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `Code: message` of a JSON error answer (sanitized), or the HTTP status.
    static func errorSummary(_ response: HTTPResponse) -> String {
        let object = JSONReader.object(from: response.body)
        let code = (object?["error"] as? String) ?? (object?["__type"] as? String) ?? response.headers.value(for: "x-amzn-ErrorType")
        let message = (object?["message"] as? String) ?? (object?["error_description"] as? String)
        let text = [code, message].compactMap { $0 }.joined(separator: ": ")
        return DisplayText.sanitize(String((text.isEmpty ? "HTTP \(response.status)" : "HTTP \(response.status) \(text)").prefix(300)))
    }
}
