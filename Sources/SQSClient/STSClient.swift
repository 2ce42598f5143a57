import Foundation
import SharedRules
import SigV4

/// AWS STS over the query protocol (form-encoded `POST /`, XML answers), signed by our SigV4 for
/// service `sts` in `region` (`AssumeRoleWithWebIdentity` is unsigned, as in the SDKs).
public struct STSClient: Sendable {
    public let endpoint: URL
    public let region: String
    public let transport: any HTTPTransport
    public static let timeout: TimeInterval = 30

    public init(endpoint: URL, region: String, transport: any HTTPTransport = CurlTransport()) {
        self.endpoint = endpoint
        self.region = region
        self.transport = transport
    }

    /// Parameters of `AssumeRole` beyond the role.
    public struct AssumeRoleOptions: Sendable {
        public var sessionName: String
        public var externalID: String?
        public var durationSeconds: Int?
        public var mfaSerial: String?
        public var mfaCode: String?

        public init(sessionName: String, externalID: String? = nil, durationSeconds: Int? = nil, mfaSerial: String? = nil, mfaCode: String? = nil) {
            self.sessionName = sessionName
            self.externalID = externalID
            self.durationSeconds = durationSeconds
            self.mfaSerial = mfaSerial
            self.mfaCode = mfaCode
        }
    }

    /// `AssumeRole` with `source` credentials; `provider` names the result's origin.
    public func assumeRole(
        roleARN: String, options: AssumeRoleOptions, source: AWSCredentials, provider: String
    ) throws(CredentialsError) -> AWSCredentials {
        var parameters = [("RoleArn", roleARN), ("RoleSessionName", options.sessionName)]
        if let externalID = options.externalID { parameters.append(("ExternalId", externalID)) }
        if let duration = options.durationSeconds { parameters.append(("DurationSeconds", String(duration))) }
        if let serial = options.mfaSerial, let code = options.mfaCode {
            parameters += [("SerialNumber", serial), ("TokenCode", code)]
        }
        let operation = CredentialsError.STSOperation.assumeRole(roleARN: roleARN)
        let xml = try call(operation, parameters, signWith: source)
        return try Self.credentials(from: xml, provider: provider, operation: operation)
    }

    /// `AssumeRoleWithWebIdentity` with the OIDC token (unsigned).
    public func assumeRoleWithWebIdentity(
        roleARN: String, sessionName: String, token: String, durationSeconds: Int? = nil, provider: String
    ) throws(CredentialsError) -> AWSCredentials {
        var parameters = [("RoleArn", roleARN), ("RoleSessionName", sessionName), ("WebIdentityToken", token)]
        if let durationSeconds { parameters.append(("DurationSeconds", String(durationSeconds))) }
        let operation = CredentialsError.STSOperation.assumeRoleWithWebIdentity(roleARN: roleARN)
        let xml = try call(operation, parameters, signWith: nil)
        return try Self.credentials(from: xml, provider: provider, operation: operation)
    }

    /// `GetCallerIdentity`: the ARN the credentials act as.
    public func callerARN(_ credentials: AWSCredentials) throws(CredentialsError) -> String {
        try callerIdentity(credentials).arn
    }

    /// Who credentials are, from `GetCallerIdentity` (sanitized for the terminal).
    public struct CallerIdentity: Sendable, Equatable {
        public var arn: String
        /// `UserId`: what SQS reports as the `SenderId` of messages these credentials send.
        public var userID: String?
        public var account: String?
    }

    /// `GetCallerIdentity`: the ARN, user id (the SQS `SenderId`) and account of the credentials.
    public func callerIdentity(_ credentials: AWSCredentials) throws(CredentialsError) -> CallerIdentity {
        let xml = try call(.getCallerIdentity, [], signWith: credentials)
        guard let arn = xml.text("GetCallerIdentityResult", "Arn") else {
            throw CredentialsError.sts(.getCallerIdentity, .arnMissing)
        }
        return CallerIdentity(arn: DisplayText.sanitize(arn),
                              userID: xml.text("GetCallerIdentityResult", "UserId").map(DisplayText.sanitize),
                              account: xml.text("GetCallerIdentityResult", "Account").map(DisplayText.sanitize))
    }

    // MARK: - Protocol

    func call(
        _ operation: CredentialsError.STSOperation, _ parameters: [(String, String)], signWith credentials: AWSCredentials?
    ) throws(CredentialsError) -> QueryXML {
        let pairs = [("Action", operation.action), ("Version", "2011-06-15")] + parameters
        let body = Array(pairs.map { "\(URIEncoding.encode($0.0))=\(URIEncoding.encode($0.1))" }.joined(separator: "&").utf8)
        var headers = [
            HTTPHeader("Host", SQSClient.hostHeader(for: endpoint)),
            HTTPHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"),
        ]
        if let credentials {
            if let problem = Digest.libraryProblem { throw CredentialsError.cryptoLibraryMissing(problem) }
            let path = endpoint.path.isEmpty ? "/" : endpoint.path
            let signing = SigningRequest(method: "POST", path: path, query: endpoint.query ?? "", headers: headers, body: body)
            headers += SigV4Signer.sign(
                request: signing, credentials: credentials, region: region, service: AWSService.sts.signingName, date: Date())
        }
        let response: HTTPResponse
        do {
            response = try transport.send(HTTPRequest(method: "POST", url: endpoint, headers: headers, body: body, responseLimit: .sts), timeout: Self.timeout, cancel: HelperRegistry.shared.shutdown)
        } catch {
            throw CredentialsError.sts(operation, .unreachable(endpoint: endpoint.absoluteString, reason: error.description))
        }
        guard (200..<300).contains(response.status) else {
            let error = ErrorResponseDecoder.decode(response)
            throw CredentialsError.sts(operation, .refused(code: error.code, message: String(error.message.prefix(500))))
        }
        do {
            return try QueryXML(response.text)
        } catch {
            throw CredentialsError.sts(operation, .malformedAnswer(reason: error.description, status: response.status))
        }
    }

    static func credentials(
        from xml: QueryXML, provider: String, operation: CredentialsError.STSOperation
    ) throws(CredentialsError) -> AWSCredentials {
        guard let keyID = xml.text("Credentials", "AccessKeyId"), !keyID.isEmpty,
              let secret = xml.text("Credentials", "SecretAccessKey"), !secret.isEmpty,
              let token = xml.text("Credentials", "SessionToken"), !token.isEmpty,
              let expirationText = xml.text("Credentials", "Expiration")
        else {
            throw CredentialsError.sts(operation, .credentialsMissing)
        }
        guard let expiration = CredentialProcess.parseISO8601(expirationText) else {
            throw CredentialsError.sts(operation, .expirationInvalid)
        }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: token, expiration: expiration, source: provider,
            identity: xml.text("AssumedRoleUser", "Arn").map(DisplayText.sanitize))
    }
}
