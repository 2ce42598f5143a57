import Foundation
import SharedRules
import SigV4
import StrictJSON

/// Credentials from the container's credential endpoint (ECS task role, EKS Pod Identity):
/// `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` (on `http://169.254.170.2`) or `..._FULL_URI`, with the
/// `Authorization` header from `AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE` (read at each call) or
/// `AWS_CONTAINER_AUTHORIZATION_TOKEN`.
struct ContainerCredentials {
    static let ecsHost = "169.254.170.2"
    static let timeout: TimeInterval = 5
    var environment: [String: String]
    var transport: any HTTPTransport

    /// True when the environment names a container endpoint.
    static func isConfigured(_ environment: [String: String]) -> Bool {
        environment["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"]?.isEmpty == false
            || environment["AWS_CONTAINER_CREDENTIALS_FULL_URI"]?.isEmpty == false
    }

    func url() throws(CredentialsError) -> URL {
        if let relative = environment["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"], !relative.isEmpty {
            guard let url = URL(string: "http://\(Self.ecsHost)\(relative.hasPrefix("/") ? "" : "/")\(relative)") else {
                throw CredentialsError.container(.relativeURIInvalid(relative))
            }
            return url
        }
        let full = environment["AWS_CONTAINER_CREDENTIALS_FULL_URI"] ?? ""
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            throw CredentialsError.container(.fullURIInvalid(full))
        }
        // As the SDKs: plain http only to the container hosts or loopback, so credentials stay on the machine.
        // Loopback is `NetworkAddress.isLoopbackHost`; the transport checks the connected address too.
        let containerHosts = ["169.254.170.2", "169.254.170.23", "[fd00:ec2::23]", "fd00:ec2::23"]
        let written = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard scheme == "https" || (scheme == "http" && (containerHosts.contains(host) || NetworkAddress.isLoopbackHost(written))) else {
            throw CredentialsError.container(.fullURIInsecure(host: host))
        }
        return url
    }

    func fetch() throws(CredentialsError) -> AWSCredentials {
        let url = try url()
        var headers: [HTTPHeader] = []
        if let file = environment["AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"], !file.isEmpty {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CredentialsError.container(.authorizationTokenFileUnreadable(file))
            }
            headers.append(HTTPHeader("Authorization", String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        } else if let token = environment["AWS_CONTAINER_AUTHORIZATION_TOKEN"], !token.isEmpty {
            headers.append(HTTPHeader("Authorization", token))
        }
        let response: HTTPResponse
        do {
            response = try transport.send(HTTPRequest(method: "GET", url: url, headers: headers, responseLimit: .machineCredentials), timeout: Self.timeout, cancel: HelperRegistry.shared.shutdown)
        } catch {
            throw CredentialsError.container(.unreachable(url: url.absoluteString, reason: error.description))
        }
        guard response.status == 200 else {
            throw CredentialsError.container(.status(url: url.absoluteString, response.status, excerpt: String(response.text.prefix(200))))
        }
        return try MachineCredentialJSON.parse(response.body, provider: "container credentials (\(url.absoluteString))")
    }
}

/// Credentials of the EC2 instance's role from the instance metadata service, IMDSv2 only: a
/// session token from `PUT /latest/api/token`, then the role name and its credentials. Each request
/// is bounded by 1 s. `AWS_EC2_METADATA_DISABLED=true` turns it off;
/// `AWS_EC2_METADATA_SERVICE_ENDPOINT` moves it.
struct InstanceMetadataCredentials {
    static let defaultEndpoint = "http://169.254.169.254"
    static let timeout: TimeInterval = 1
    static let tokenTTLSeconds = 21600
    var environment: [String: String]
    var transport: any HTTPTransport

    static func isDisabled(_ environment: [String: String]) -> Bool {
        environment["AWS_EC2_METADATA_DISABLED"]?.lowercased() == "true"
    }

    var endpoint: String {
        let configured = environment["AWS_EC2_METADATA_SERVICE_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultEndpoint
        return configured.hasSuffix("/") ? String(configured.dropLast()) : configured
    }

    func fetch() throws(CredentialsError) -> AWSCredentials {
        let token = try text(try request("PUT", "/latest/api/token", [HTTPHeader("X-aws-ec2-metadata-token-ttl-seconds", String(Self.tokenTTLSeconds))]), step: .sessionToken)
        let auth = [HTTPHeader("X-aws-ec2-metadata-token", token)]
        let listing = try request("GET", "/latest/meta-data/iam/security-credentials/", auth)
        let roles = listing.status == 404 ? "" : try text(listing, step: .roleName)
        guard let role = roles.split(whereSeparator: \.isNewline).first.map(String.init), !role.isEmpty else {
            throw CredentialsError.instanceMetadata(endpoint: endpoint, .noRole)
        }
        let response = try request("GET", "/latest/meta-data/iam/security-credentials/\(URIEncoding.encode(role))", auth)
        guard response.status == 200 else {
            throw CredentialsError.instanceMetadata(endpoint: endpoint, .roleCredentialsStatus(role: role, status: response.status))
        }
        return try MachineCredentialJSON.parse(response.body, provider: "EC2 instance metadata (role \(DisplayText.sanitize(role)))")
    }

    private func request(_ method: String, _ path: String, _ headers: [HTTPHeader]) throws(CredentialsError) -> HTTPResponse {
        guard let url = URL(string: endpoint + path) else {
            throw CredentialsError.instanceMetadata(endpoint: endpoint, .endpointInvalid)
        }
        do {
            return try transport.send(HTTPRequest(method: method, url: url, headers: headers, responseLimit: .machineCredentials), timeout: Self.timeout, cancel: HelperRegistry.shared.shutdown)
        } catch {
            throw CredentialsError.instanceMetadata(endpoint: endpoint, .unreachable(seconds: Int(Self.timeout), reason: error.description))
        }
    }

    private func text(_ response: HTTPResponse, step: CredentialsError.InstanceMetadataStep) throws(CredentialsError) -> String {
        guard response.status == 200 else {
            throw CredentialsError.instanceMetadata(endpoint: endpoint, .refused(step, status: response.status))
        }
        return response.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The JSON both the container endpoint and IMDS answer with.
enum MachineCredentialJSON {
    static func parse(_ body: [UInt8], provider: String) throws(CredentialsError) -> AWSCredentials {
        guard let object = JSONReader.object(from: body) else {
            throw CredentialsError.machineAnswer(provider: provider, .notJSON)
        }
        if let code = object["Code"] as? String, code != "Success" {
            throw CredentialsError.machineAnswer(provider: provider, .errorCode(code, message: object["Message"] as? String ?? ""))
        }
        guard let keyID = object["AccessKeyId"] as? String, !keyID.isEmpty,
              let secret = object["SecretAccessKey"] as? String, !secret.isEmpty
        else {
            throw CredentialsError.machineAnswer(provider: provider, .keysMissing)
        }
        var expiration: Date?
        if let text = object["Expiration"] as? String {
            guard let date = CredentialProcess.parseISO8601(text) else {
                throw CredentialsError.machineAnswer(provider: provider, .expirationInvalid)
            }
            expiration = date
        }
        let identity = (object["RoleArn"] as? String) ?? (object["AccountId"] as? String).map { "account \($0)" }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: object["Token"] as? String,
            expiration: expiration, source: provider, identity: identity.map(DisplayText.sanitize))
    }
}
