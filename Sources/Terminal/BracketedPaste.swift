import Foundation

/// Switches the terminal's bracketed paste mode (2004): pasted text arrives between `ESC [ 200 ~` and
/// `ESC [ 201 ~`, so `InputDecoder` can tell it from typed keys (a paste is never a command or Enter).
/// On while the UI runs; off on exit, on a crash signal and while suspended.
enum BracketedPaste {
    static func set(_ on: Bool) {
        let sequence = on ? "\u{1B}[?2004h" : "\u{1B}[?2004l"
        fflush(nil)  // ncurses buffers in stdio: keep the order of what reaches the terminal
        _ = sequence.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
