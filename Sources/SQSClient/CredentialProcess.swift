import Foundation
import SharedRules
import StrictJSON

/// Runs a profile's `credential_process` command (split like botocore, exec'd without a shell) and
/// parses its JSON (Version 1).
enum CredentialProcess {
    /// How long a helper may run before its process group is killed, unless
    /// `TIMELINE_CREDENTIAL_PROCESS_TIMEOUT` (seconds) says otherwise.
    static let defaultTimeout: TimeInterval = 60

    static func timeout(_ environment: [String: String]) -> TimeInterval {
        guard let text = environment["TIMELINE_CREDENTIAL_PROCESS_TIMEOUT"], let seconds = TimeInterval(text), seconds > 0 else {
            return defaultTimeout
        }
        return seconds
    }

    static func run(
        command: String, profile: String, environment: [String: String], looksLikeSSO: Bool, source: String
    ) throws(CredentialsError) -> AWSCredentials {
        let prefix = "credential_process for profile \"\(profile)\""
        let arguments: [String]
        do {
            arguments = try CommandLineWords.split(command)
        } catch {
            throw CredentialsError("\(prefix) cannot be split into arguments: \(error.description) (it is run without a shell, with botocore's quoting rules)")
        }
        guard !arguments.isEmpty else { throw CredentialsError("\(prefix) is empty") }
        let output: HelperProcess.Output
        do {
            output = try HelperProcess.run(arguments, environment: environment, timeout: timeout(environment))
        } catch {
            switch error {
            case .cannotStart(let reason):
                throw CredentialsError("\(prefix) could not start: \(DisplayText.sanitize(reason)) (run without a shell: use a full path, and no pipes, `;` or `$(…)`)")
            case .timedOut:
                throw CredentialsError("\(prefix) did not finish within \(Int(timeout(environment))) s and was killed (with its process group); TIMELINE_CREDENTIAL_PROCESS_TIMEOUT sets the limit")
            case .outputTooLarge:
                throw CredentialsError("\(prefix) printed more than \(HelperProcess.stdoutCap / 1024) KiB and was killed")
            case .interrupted:
                throw CredentialsError("\(prefix) was stopped: timeline is shutting down")
            }
        }
        guard output.status == 0 else {
            var message = "\(prefix) failed (exit status \(output.status))"
            let stderr = DisplayText.sanitize(String(decoding: output.stderr, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines))
            if !stderr.isEmpty { message += ": \(String(stderr.prefix(1000)))" }
            if looksLikeSSO || command.lowercased().contains("sso") || stderr.lowercased().contains("sso") {
                message += "\nThe SSO session may have expired: run `aws sso login --profile \(profile)` and try again."
            } else {
                message += "\nRun the command yourself to see what it needs: \(DisplayText.sanitize(command))"
            }
            throw CredentialsError(message)
        }
        return try parse(output.stdout, profile: profile, source: source)
    }

    /// Parses the process output. Never echoes it: it holds secrets.
    static func parse(_ output: Data, profile: String, source: String) throws(CredentialsError) -> AWSCredentials {
        let prefix = "credential_process for profile \"\(profile)\""
        guard let object = JSONReader.object(from: [UInt8](output)) else {
            throw CredentialsError("\(prefix) printed \(output.count) bytes that are not a JSON object (expected {\"Version\": 1, \"AccessKeyId\": …, \"SecretAccessKey\": …})")
        }
        guard object["Version"] as? Int == 1 else {
            throw CredentialsError("\(prefix) printed JSON without \"Version\": 1")
        }
        guard let keyID = object["AccessKeyId"] as? String, !keyID.isEmpty,
              let secret = object["SecretAccessKey"] as? String, !secret.isEmpty
        else {
            throw CredentialsError("\(prefix) printed JSON without AccessKeyId and SecretAccessKey")
        }
        var expiration: Date?
        if let text = object["Expiration"] as? String {
            guard let date = parseISO8601(text) else {
                throw CredentialsError("\(prefix) printed an Expiration that is not an ISO 8601 time: \(DisplayText.sanitize(String(text.prefix(40))))")
            }
            expiration = date
        }
        let token = (object["SessionToken"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: token, expiration: expiration, source: source)
    }

    /// An ISO 8601 time with `Z` or an offset, any number of fractional digits.
    static func parseISO8601(_ text: String) -> Date? {
        Timestamp.parseMicros(text).map { Date(timeIntervalSince1970: TimeInterval($0) / 1_000_000) }
    }
}
