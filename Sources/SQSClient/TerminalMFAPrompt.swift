import Foundation
import SharedRules
import Synchronization

/// Asks for an MFA code on the controlling terminal (`/dev/tty`), never on stdin/stdout.
public enum TerminalMFAPrompt {
    private static let blocked = Mutex<String?>(nil)

    /// While set (e.g. while a full-screen UI owns the terminal), asking fails with `reason` instead.
    public static func block(_ reason: String?) { blocked.withLock { $0 = reason } }

    /// Prompts on `terminal` and reads one line: six digits.
    public static func ask(profile: String, serial: String, terminal: String = "/dev/tty") throws(CredentialsError) -> String {
        if let reason = blocked.withLock({ $0 }) {
            throw CredentialsError("Profile \"\(profile)\" needs a new MFA code (mfa_serial \(serial)), which cannot be asked now: \(reason)")
        }
        let descriptor = open(terminal, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw CredentialsError("Profile \"\(profile)\" needs an MFA code (mfa_serial \(serial)) and there is no terminal to ask on: run timeline from a terminal, or use a profile without mfa_serial")
        }
        defer { close(descriptor) }
        let prompt = "Enter MFA code for \(DisplayText.sanitize(serial)): "
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != 0x0A, line.count < 64 { line.append(byte) }
        let code = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard code.count == 6, code.allSatisfy(\.isNumber) else {
            throw CredentialsError("The MFA code for profile \"\(profile)\" must be 6 digits")
        }
        return code
    }
}
