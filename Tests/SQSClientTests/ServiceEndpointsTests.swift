import Foundation
import SQSClient
import TestSupport
import Testing

@Suite struct ServiceEndpointsTests {
    func resolver(_ temp: TemporaryDirectory, _ environment: [String: String], profile: String = "default") -> ServiceEndpoints {
        let environment = temp.environment(environment)
        return ServiceEndpoints(environment: environment, files: SharedConfigFiles(environment: environment), profile: profile)
    }

    @Test func serviceVariableThenGlobalThenProfileThenRegion() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile dev]\nendpoint_url = http://10.0.0.5:4566\n")
        let all = resolver(temp, [
            "AWS_ENDPOINT_URL_STS": "http://127.0.0.1:1001", "AWS_ENDPOINT_URL_SSO_OIDC": "http://127.0.0.1:1002",
            "AWS_ENDPOINT_URL": "http://127.0.0.1:1000",
        ], profile: "dev")
        #expect(try all.endpoint(for: .sts, region: "eu-west-1").value.absoluteString == "http://127.0.0.1:1001")
        #expect(try all.endpoint(for: .sts, region: "eu-west-1").source == "AWS_ENDPOINT_URL_STS")
        #expect(try all.endpoint(for: .ssoOIDC, region: "eu-west-1").value.absoluteString == "http://127.0.0.1:1002")
        #expect(try all.endpoint(for: .sns, region: "eu-west-1").source == "AWS_ENDPOINT_URL")
        let profileOnly = resolver(temp, [:], profile: "dev")
        let sso = try profileOnly.endpoint(for: .sso, region: "eu-west-1")
        #expect(sso.value.absoluteString == "http://10.0.0.5:4566")
        #expect(sso.source.contains("endpoint_url of profile \"dev\""))
        let none = resolver(temp, [:])
        #expect(try none.endpoint(for: .sts, region: "eu-west-1").value.absoluteString == "https://sts.eu-west-1.amazonaws.com")
        #expect(try none.endpoint(for: .sso, region: "us-east-1").value.absoluteString == "https://portal.sso.us-east-1.amazonaws.com")
        #expect(try none.endpoint(for: .ssoOIDC, region: "us-east-1").value.absoluteString == "https://oidc.us-east-1.amazonaws.com")
        #expect(try none.endpoint(for: .sns, region: "cn-north-1").value.absoluteString == "https://sns.cn-north-1.amazonaws.com.cn")
    }

    @Test func servicesSectionBeatsTheProfileEndpoint() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile dev]
            services = local-stack
            endpoint_url = http://127.0.0.1:1000
            [services local-stack]
            sts =
              endpoint_url = http://127.0.0.1:2000
            sso_oidc =
              endpoint_url = http://127.0.0.1:3000
            """)
        let endpoints = resolver(temp, [:], profile: "dev")
        #expect(try endpoints.endpoint(for: .sts, region: "us-east-1").value.absoluteString == "http://127.0.0.1:2000")
        #expect(try endpoints.endpoint(for: .sts, region: "us-east-1").source.contains("[services local-stack]"))
        #expect(try endpoints.endpoint(for: .ssoOIDC, region: "us-east-1").value.absoluteString == "http://127.0.0.1:3000")
        #expect(try endpoints.endpoint(for: .sqs, region: "us-east-1").value.absoluteString == "http://127.0.0.1:1000")
        // The environment still comes first.
        #expect(try resolver(temp, ["AWS_ENDPOINT_URL": "http://127.0.0.1:4000"], profile: "dev")
            .endpoint(for: .sts, region: "us-east-1").value.absoluteString == "http://127.0.0.1:4000")
    }

    @Test func ignoreConfiguredEndpointURLsTurnsThemAllOff() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[default]\nendpoint_url = http://127.0.0.1:9\n[profile quiet]\nendpoint_url = http://127.0.0.1:9\nignore_configured_endpoint_urls = true\n")
        let ignored = resolver(temp, ["AWS_ENDPOINT_URL_STS": "http://127.0.0.1:1", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"])
        #expect(try ignored.configuredEndpoint(for: .sts) == nil)
        #expect(try ignored.endpoint(for: .sts, region: "us-west-2").value.absoluteString == "https://sts.us-west-2.amazonaws.com")
        #expect(try resolver(temp, [:], profile: "quiet").configuredEndpoint(for: .sqs) == nil)
        #expect(try resolver(temp, [:]).configuredEndpoint(for: .sqs)?.value.absoluteString == "http://127.0.0.1:9")
    }

    @Test func badOverrideNamesItsSource() throws {
        let temp = try TemporaryDirectory()
        #expect { _ = try resolver(temp, ["AWS_ENDPOINT_URL_SNS": "ftp://x"]).endpoint(for: .sns, region: "us-east-1") } throws: { error in
            "\(error)".contains("The endpoint from AWS_ENDPOINT_URL_SNS is not an http(s) URL: ftp://x")
        }
    }

    @Test func localHosts() {
        for local in ["http://127.0.0.1:4566", "http://localhost:9324", "http://10.1.2.3", "http://172.20.0.2:4566", "http://192.168.1.9", "http://[::1]:4566", "http://sqs.localhost"] {
            #expect(ServiceEndpoints.isLocal(URL(string: local)!), "\(local)")
        }
        for remote in ["https://sqs.us-east-1.amazonaws.com", "http://172.32.0.1", "http://8.8.8.8", "http://127.example.com"] {
            #expect(!ServiceEndpoints.isLocal(URL(string: remote)!), "\(remote)")
        }
    }

    @Test func sqsConfigurationUsesTheResolverAndALocalEndpointNeedsNoRegion() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile local]\nendpoint_url = http://127.0.0.1:4566\n")
        var configuration = try SQSConfiguration.resolve(flags: .init(queueName: "events", profile: "local"), environment: temp.environment())
        #expect(configuration.endpoint.value.absoluteString == "http://127.0.0.1:4566")
        #expect(configuration.endpoint.source.contains("endpoint_url of profile \"local\""))
        #expect(configuration.region.value == "us-east-1")
        #expect(configuration.region.source == "default for the local endpoint 127.0.0.1")
        // The same resolver serves the other services.
        #expect(try configuration.endpoints.endpoint(for: .sns, region: configuration.region.value).value.absoluteString == "http://127.0.0.1:4566")
        configuration = try SQSConfiguration.resolve(
            flags: .init(queueURL: "http://localhost:4566/000000000000/q", endpointURL: "http://localhost:4566"), environment: temp.environment())
        #expect(configuration.region.value == "us-east-1")
        // A remote endpoint still needs a region.
        #expect(throws: ConfigurationError.self) {
            _ = try SQSConfiguration.resolve(flags: .init(queueName: "events", endpointURL: "https://sqs.example.com"), environment: temp.environment())
        }
    }
}

@Suite struct ConfigFileReadabilityTests {
    @Test func unreadableFilesAreReportedAsUnreadable() throws {
        let temp = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: temp.url.path + "/.aws/credentials", withIntermediateDirectories: true)
        let config = try temp.write(".aws/config", "[profile other]\nregion = us-east-1\n")
        chmod(config, 0o000)
        defer { chmod(config, 0o600) }
        let environment = temp.environment()
        let files = SharedConfigFiles(environment: environment)
        #expect(files.credentialsUnreadable == "it is a directory")
        if getuid() != 0 {  // root reads anything
            #expect(files.configUnreadable == "Permission denied")
        }
        #expect { _ = try CredentialChain(environment: environment).credentials() } throws: { error in
            "\(error)".contains("\(temp.url.path)/.aws/credentials (exists but cannot be read: it is a directory)")
                && !"\(error)".contains("credentials (no such file)")
        }
    }
}
