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
            throw CredentialsError.mfa(profile: profile, serial: serial, .cannotAskNow(reason))
        }
        let descriptor = open(terminal, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw CredentialsError.mfa(profile: profile, serial: serial, .noTerminal)
        }
        defer { close(descriptor) }
        let prompt = "Enter MFA code for \(DisplayText.sanitize(serial)): "
        _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1, byte != 0x0A, line.count < 64 { line.append(byte) }
        let code = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard code.count == 6, code.allSatisfy(\.isNumber) else {
            throw CredentialsError.mfa(profile: profile, serial: serial, .notSixDigits)
        }
        return code
    }
}
