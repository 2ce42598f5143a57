import Foundation
import SharedRules

/// An AWS service timeline calls, with its endpoint override name, signing name and default host.
public enum AWSService: String, Sendable, CaseIterable {
    case sqs, sts, sns, sso, ssoOIDC

    /// `SUFFIX` in `AWS_ENDPOINT_URL_<SUFFIX>`.
    public var environmentSuffix: String {
        switch self {
        case .sqs: "SQS"
        case .sts: "STS"
        case .sns: "SNS"
        case .sso: "SSO"
        case .ssoOIDC: "SSO_OIDC"
        }
    }

    /// The key of its block in a `[services NAME]` section of the config file.
    public var configKey: String {
        switch self {
        case .sqs: "sqs"
        case .sts: "sts"
        case .sns: "sns"
        case .sso: "sso"
        case .ssoOIDC: "sso_oidc"
        }
    }

    /// The SigV4 service name (credential scope).
    public var signingName: String {
        switch self {
        case .sqs: "sqs"
        case .sts: "sts"
        case .sns: "sns"
        case .sso: "awsssoportal"
        case .ssoOIDC: "sso-oauth"
        }
    }

    /// The regional AWS endpoint, e.g. `https://sts.eu-west-1.amazonaws.com`.
    public func defaultEndpoint(region: String) -> URL {
        let suffix = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        let host: String
        switch self {
        case .sqs: host = "sqs.\(region).\(suffix)"
        case .sts: host = "sts.\(region).\(suffix)"
        case .sns: host = "sns.\(region).\(suffix)"
        case .sso: host = "portal.sso.\(region).\(suffix)"
        case .ssoOIDC: host = "oidc.\(region).\(suffix)"
        }
        return URL(string: "https://\(host)")!
    }
}

/// The one place that decides which URL a service is called at, following the AWS SDKs:
/// 1. `AWS_ENDPOINT_URL_<SERVICE>` (e.g. `AWS_ENDPOINT_URL_STS`, `AWS_ENDPOINT_URL_SSO_OIDC`),
/// 2. `AWS_ENDPOINT_URL`,
/// 3. the service's `endpoint_url` in the `[services NAME]` section the profile names (`services = NAME`),
/// 4. `endpoint_url` in the profile,
/// 5. the service's regional AWS endpoint.
/// `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true` (or `ignore_configured_endpoint_urls = true` in the
/// profile) skips 1–4. A command-line `--endpoint-url` is not "configured": callers apply it first.
///
/// Usage: `let url = try ServiceEndpoints(environment: env, files: files, profile: name).endpoint(for: .sns, region: region)`.
public struct ServiceEndpoints: Sendable {
    public let environment: [String: String]
    /// `endpoint_url` of the profile and the file it is in.
    public let profileEndpoint: Provenanced<String>?
    /// True when configured endpoints are switched off (and why).
    public let ignoredBecause: String?
    /// The `[services NAME]` section the profile names, and where it is.
    private let servicesSection: (name: String, settings: [String: String], path: String)?

    public init(environment: [String: String], files: SharedConfigFiles, profile: String) {
        self.environment = environment
        if let setting = files.value("endpoint_url", profile: profile) {
            profileEndpoint = Provenanced(setting.value, from: "endpoint_url of profile \"\(profile)\" in \(setting.path)")
        } else {
            profileEndpoint = nil
        }
        if let name = files.value("services", profile: profile)?.value, let settings = files.configFile?.sections["services \(name)"] {
            servicesSection = (name, settings, files.configPath)
        } else {
            servicesSection = nil
        }
        if environment["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"]?.lowercased() == "true" {
            ignoredBecause = "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true"
        } else if environment["AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"] == nil,
                  let setting = files.value("ignore_configured_endpoint_urls", profile: profile),
                  setting.value.lowercased() == "true" {
            ignoredBecause = "ignore_configured_endpoint_urls in \(setting.path)"
        } else {
            ignoredBecause = nil
        }
    }

    /// The configured override for `service`, or nil when none applies.
    public func configuredEndpoint(for service: AWSService) throws(ConfigurationError) -> Provenanced<URL>? {
        guard ignoredBecause == nil else { return nil }
        let specific = "AWS_ENDPOINT_URL_\(service.environmentSuffix)"
        if let text = Self.nonEmpty(environment[specific]) {
            return Provenanced(try Self.validated(text, source: specific), from: specific)
        }
        if let text = Self.nonEmpty(environment["AWS_ENDPOINT_URL"]) {
            return Provenanced(try Self.validated(text, source: "AWS_ENDPOINT_URL"), from: "AWS_ENDPOINT_URL")
        }
        if let services = servicesSection, let text = Self.nonEmpty(services.settings["\(service.configKey).endpoint_url"]) {
            let source = "\(service.configKey) endpoint_url of [services \(services.name)] in \(services.path)"
            return Provenanced(try Self.validated(text, source: source), from: source)
        }
        if let setting = profileEndpoint, let text = Self.nonEmpty(setting.value) {
            return Provenanced(try Self.validated(text, source: setting.source), from: setting.source)
        }
        return nil
    }

    /// The configured override, else the regional AWS endpoint.
    public func endpoint(for service: AWSService, region: String) throws(ConfigurationError) -> Provenanced<URL> {
        if let configured = try configuredEndpoint(for: service) { return configured }
        return Provenanced(service.defaultEndpoint(region: region), from: "region \(region)")
    }

    /// An http(s) URL with a host, or an error naming where it came from.
    public static func validated(_ text: String, source: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else {
            throw ConfigurationError("The endpoint from \(source) is not an http(s) URL: \(text)")
        }
        return url
    }

    /// True for loopback and private-network hosts (`NetworkAddress`: `localhost`, 127/8, `::1`, private
    /// ranges, and `*.localhost`): local servers, which need no real region.
    public static func isLocal(_ url: URL) -> Bool {
        guard var host = url.host?.lowercased() else { return false }
        if host.contains(":") && !host.hasPrefix("[") { host = "[\(host)]" }
        if NetworkAddress.isLoopbackHost(host) || host.hasSuffix(".localhost") { return true }
        let scope = NetworkAddress.scope(of: host)
        return scope == .loopback || scope == .privateNetwork
    }

    static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}
