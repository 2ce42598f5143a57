import Foundation
import TimelineCore
import TimelineUI

/// Whether output goes to a terminal, and the colours of the plain-text commands.
enum TerminalStyle {
    /// True when `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Colours on stdout: only on a terminal, when NO_COLOR is unset or empty (https://no-color.org) and
    /// TERM is not `dumb`.
    static var stdoutWantsColor: Bool {
        let env = ProcessInfo.processInfo.environment
        return isTerminal(STDOUT_FILENO) && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }

    /// Columns of the terminal on `fd`, nil when it is not a terminal.
    static func columns(of fd: Int32) -> Int? {
        guard isTerminal(fd) else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// SGR colour of a status: its colour in the one palette (`RoleColor`), as the TUI draws it.
    static func color(of status: Status) -> String {
        guard let color = status.colorRole.foreground else { return "" }
        return "\u{1B}[38;5;\(color.xterm256)m"
    }

    static let reset = "\u{1B}[0m"
    static let dim = "\u{1B}[2m"

    /// `text` in `sgr` when colours are on.
    static func paint(_ text: String, _ sgr: String, enabled: Bool) -> String {
        enabled ? sgr + text + reset : text
    }
}
