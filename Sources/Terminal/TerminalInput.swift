import Foundation
import TimelineUI

/// Reads the terminal's bytes straight from stdin and decodes them with `InputDecoder`. ncurses' keypad
/// translation stays off, so no terminfo entry (tmux-256color, screen-256color, linux, …) can turn a
/// sequence it does not list into stray keystrokes.
final class TerminalInput {
    private var decoder = InputDecoder()
    /// How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. Terminals
    /// send a sequence in one write, so a short wait suffices (tmux and screen forward it whole too).
    static let escapeTimeoutMillis: Int32 = 25
    /// At most this many bytes per `read` call, so a flood of input cannot starve drawing.
    static let maxBytesPerRead = 65_536
    /// True once stdin reached end of file (the terminal went away).
    private(set) var closed = false

    /// Waits up to `timeoutMillis` for input, then takes everything already queued (a held key, a paste:
    /// all of it). Returns the decoded inputs, in order; empty on timeout.
    func read(timeoutMillis: Int32) -> [Input] {
        var out: [Input] = []
        var total = 0
        var wait = timeoutMillis
        var buffer = [UInt8](repeating: 0, count: 4096)
        while total < Self.maxBytesPerRead, !closed {
            guard Self.readable(timeoutMillis: wait) else {
                // Pending bytes mean we waited the escape timeout for the rest: a lone ESC is Escape.
                if decoder.hasPending { out += decoder.flush() }
                break
            }
            let n = buffer.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n == 0 { closed = true; break }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue } else { closed = true; break } }
            total += n
            out += decoder.feed(buffer[0..<n])
            wait = decoder.hasPending ? Self.escapeTimeoutMillis : 0
        }
        return InputDecoder.droppingKeysAfterPaste(out)
    }

    /// poll(2) on stdin; false on timeout or when a signal (SIGWINCH) interrupted the wait.
    private static func readable(timeoutMillis: Int32) -> Bool {
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&fds, 1, timeoutMillis) > 0
    }
}
