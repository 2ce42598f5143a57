import Foundation
@testable import SQSClient
import TestSupport
import Testing

/// `credential_process` without a shell (split by `CommandLineWords`, tested in TimelineCoreTests), bounded output, sanitized stderr,
/// the process group killed on timeout, no inherited descriptors.
@Suite struct CredentialProcessTests {
    @Test func valuesQuotedFromFilesAreSanitized() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[profile evil]\nrole_arn = arn:x\nsource_profile = \u{1B}]52;c;cGF5bG9hZA==\u{07}ghost\n")
        do {
            _ = try CredentialChain(environment: temp.environment(["AWS_PROFILE": "evil"])).credentials()
            Issue.record("a missing source_profile was accepted")
        } catch {
            guard case .profile("evil", .sourceProfileMissing(let source, _, _)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(source.hasSuffix("ghost") && error.message.contains("has source_profile = ghost,"))
            #expect(!error.message.contains("\u{1B}") && !error.message.contains("\u{07}"))
        }
    }

    @Test func shellSyntaxIsNotExecuted() throws {
        let temp = try TemporaryDirectory()
        let marker = temp.url.path + "/pwned"
        try temp.write(".aws/config", "[default]\ncredential_process = echo '{}' ; touch \(marker)\n")
        #expect(throws: CredentialsError.self) { _ = try CredentialChain(environment: temp.environment()).credentials() }
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test func helperArgumentsArriveVerbatim() throws {
        let temp = try TemporaryDirectory()
        let script = try temp.write("creds.py", """
            #!/usr/bin/env python3
            import json, sys
            print(json.dumps({"Version": 1, "AccessKeyId": json.dumps(sys.argv[1:]), "SecretAccessKey": "s"}))
            """, executable: true)
        try temp.write(".aws/config", "[default]\ncredential_process = \(script) \"two words\" '$HOME' plain\n")
        let credentials = try CredentialChain(environment: temp.environment()).credentials()
        #expect(credentials.accessKeyID == #"["two words", "$HOME", "plain"]"#)
    }

    @Test func outputIsCappedAndStderrSanitized() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", """
            [profile big]
            credential_process = python3 -c "print('x' * 100000)"
            [profile hostile]
            credential_process = python3 -c "import sys; sys.stderr.write('bad \\033]0;title\\007 \\033[2J done'); sys.exit(3)"
            [profile missing]
            credential_process = /no/such/helper --flag
            """)
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment(["AWS_PROFILE": "big"])).credentials() }
            == .credentialProcess(profile: "big", .outputTooLarge(kibibytes: 64)))
        do {
            _ = try CredentialChain(environment: temp.environment(["AWS_PROFILE": "hostile"])).credentials()
            Issue.record("a failing helper gave credentials")
        } catch {
            guard case .credentialProcess("hostile", .failed(status: 3, _, _)) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.message.contains("bad") && error.message.contains("done"))
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment(["AWS_PROFILE": "missing"])).credentials() }
            == .credentialProcess(profile: "missing", .cannotStart(reason: "/no/such/helper: command not found (or not executable)")))
    }

    @Test func timeoutKillsTheWholeProcessGroup() throws {
        let temp = try TemporaryDirectory()
        let pidFile = temp.url.path + "/grandchild"
        let result = Result { () throws(HelperProcess.Failure) -> HelperProcess.Output in
            try HelperProcess.run(["sh", "-c", "sleep 300 & echo $! > \(pidFile); sleep 300"], environment: temp.environment(), timeout: 1)
        }
        guard case .failure(.timedOut) = result else {
            Issue.record("expected a timeout, got \(result)")
            return
        }
        let grandchild = try #require(pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Killed with SIGKILL as a group: gone (or a zombie awaiting init) at once.
        #expect(PollerWait.until { kill(grandchild, 0) != 0 || Self.isZombie(grandchild) })
    }

    @Test func timeoutThroughTheChainIsConfigurableAndSaid() throws {
        let temp = try TemporaryDirectory()
        try temp.write(".aws/config", "[default]\ncredential_process = sleep 30\n")
        #expect(credentialsError { _ = try CredentialChain(environment: temp.environment(["TIMELINE_CREDENTIAL_PROCESS_TIMEOUT": "1"])).credentials() }
            == .credentialProcess(profile: "default", .timedOut(seconds: 1)))
    }

    @Test func aGrandchildHoldingTheOutputOpenDoesNotHoldUsUp() throws {
        let temp = try TemporaryDirectory()
        let output = try HelperProcess.run(
            ["sh", "-c", "printf '{\"Version\":1}'; (sleep 300 &) ; exit 0"], environment: temp.environment(), timeout: 30)
        #expect(output.status == 0)
        #expect(String(decoding: output.stdout, as: UTF8.self) == #"{"Version":1}"#)
    }

    @Test func helperInheritsNoDescriptors() throws {
        let temp = try TemporaryDirectory()
        // Open a socket and a file without close-on-exec in this process: neither may reach the helper.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        let fileFD = open(temp.url.path, O_RDONLY)
        defer { close(fileFD) }
        let output = try HelperProcess.run(["sh", "-c", "ls /proc/$$/fd"], environment: temp.environment(), timeout: 30)
        let descriptors = String(decoding: output.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(Set(descriptors).isSubset(of: ["0", "1", "2"]), "\(descriptors)")
    }

    static func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
    }
}

/// Polls a condition for up to 10 s.
enum PollerWait {
    static func until(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}
