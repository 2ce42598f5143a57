import Foundation

/// Runs a profile's `credential_process` command (`/bin/sh -c`) and parses its JSON (Version 1).
enum CredentialProcess {
    static let timeout: TimeInterval = 120

    static func run(
        command: String, profile: String, environment: [String: String], looksLikeSSO: Bool, source: String
    ) throws(CredentialsError) -> AWSCredentials {
        let (status, output, errors) = try execute(command, environment: environment)
        guard status == 0 else {
            var message = "credential_process for profile \"\(profile)\" failed (exit status \(status))"
            let stderr = errors.trimmingCharacters(in: .whitespacesAndNewlines)
            if !stderr.isEmpty { message += ": \(String(stderr.prefix(1000)))" }
            if looksLikeSSO || command.lowercased().contains("sso") || stderr.lowercased().contains("sso") {
                message += "\nThe SSO session may have expired: run `aws sso login --profile \(profile)` and try again."
            } else {
                message += "\nRun the command yourself to see what it needs: \(command)"
            }
            throw CredentialsError(message)
        }
        return try parse(output, profile: profile, source: source)
    }

    /// Parses the process output. Never echoes it: it holds secrets.
    static func parse(_ output: Data, profile: String, source: String) throws(CredentialsError) -> AWSCredentials {
        let prefix = "credential_process for profile \"\(profile)\""
        guard let object = try? JSONSerialization.jsonObject(with: output) as? [String: Any] else {
            throw CredentialsError("\(prefix) printed \(output.count) bytes that are not a JSON object (expected {\"Version\": 1, \"AccessKeyId\": …, \"SecretAccessKey\": …})")
        }
        guard (object["Version"] as? NSNumber)?.intValue == 1 else {
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
                throw CredentialsError("\(prefix) printed an Expiration that is not an ISO 8601 time: \(text.prefix(40))")
            }
            expiration = date
        }
        let token = (object["SessionToken"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(
            accessKeyID: keyID, secretAccessKey: secret, sessionToken: token, expiration: expiration, source: source)
    }

    static func parseISO8601(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Runs `/bin/sh -c command`, collecting stdout and stderr (each read on its own thread).
    private static func execute(_ command: String, environment: [String: String]) throws(CredentialsError) -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CredentialsError("could not start credential_process (/bin/sh -c …): \(error.localizedDescription)")
        }
        let errorData = Locked(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withValue { $0 = data }
            errorsRead.signal()
        }.start()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        errorsRead.wait()
        if process.terminationReason == .uncaughtSignal {
            throw CredentialsError("credential_process did not finish within \(Int(timeout)) s: \(command)")
        }
        return (process.terminationStatus, outputData, String(decoding: errorData.current, as: UTF8.self))
    }
}

/// A value shared between threads, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
    var current: Value { lock.withLock { value } }
}
