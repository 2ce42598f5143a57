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
        func failure(_ problem: CredentialsError.CredentialProcessProblem) -> CredentialsError {
            .credentialProcess(profile: profile, problem)
        }
        let arguments: [String]
        do {
            arguments = try CommandLineWords.split(command)
        } catch {
            throw failure(.unsplittable(reason: error.description))
        }
        guard !arguments.isEmpty else { throw failure(.empty) }
        let output: HelperProcess.Output
        do {
            output = try HelperProcess.run(arguments, environment: environment, timeout: timeout(environment))
        } catch {
            switch error {
            case .cannotStart(let reason): throw failure(.cannotStart(reason: reason))
            case .timedOut: throw failure(.timedOut(seconds: Int(timeout(environment))))
            case .outputTooLarge: throw failure(.outputTooLarge(kibibytes: HelperProcess.stdoutCap / 1024))
            case .interrupted: throw failure(.interrupted)
            }
        }
        guard output.status == 0 else {
            // Shown to the user (it often says what to do), with anything that looks like a secret taken out
            // first: a helper may echo keys or tokens when it fails.
            let stderr = SecretRedaction.redact(String(decoding: output.stderr, as: UTF8.self))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let aboutSSO = looksLikeSSO || command.lowercased().contains("sso") || stderr.lowercased().contains("sso")
            throw failure(.failed(status: output.status, stderr: String(stderr.prefix(1000)),
                                  next: aboutSSO ? .ssoLogin : .runYourself(command: command)))
        }
        return try parse(output.stdout, profile: profile, source: source)
    }

    /// Parses the process output. Never echoes it: it holds secrets.
    static func parse(_ output: Data, profile: String, source: String) throws(CredentialsError) -> AWSCredentials {
        func failure(_ problem: CredentialsError.CredentialProcessProblem) -> CredentialsError {
            .credentialProcess(profile: profile, problem)
        }
        guard let object = JSONReader.object(from: [UInt8](output)) else {
            throw failure(.notJSON(byteCount: output.count))
        }
        guard object["Version"] as? Int == 1 else {
            throw failure(.versionMissing)
        }
        guard let keyID = object["AccessKeyId"] as? String, !keyID.isEmpty,
              let secret = object["SecretAccessKey"] as? String, !secret.isEmpty
        else {
            throw failure(.keysMissing)
        }
        var expiration: Date?
        if let text = object["Expiration"] as? String {
            guard let date = parseISO8601(text) else {
                throw failure(.expirationInvalid(String(text.prefix(40))))
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
