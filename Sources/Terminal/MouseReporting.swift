import Foundation

/// Switches the terminal's mouse reporting: button presses and the wheel (1000) in SGR form (1006), which
/// has no coordinate limit. Written directly, not through terminfo, because entries such as tmux-256color
/// and screen-256color do not describe SGR mouse; `InputDecoder` reads the X10 form too, for terminals
/// that ignore 1006.
enum MouseReporting {
    static func set(_ on: Bool) {
        let sequence = on ? "\u{1B}[?1000h\u{1B}[?1006h" : "\u{1B}[?1006l\u{1B}[?1000l"
        fflush(nil)  // ncurses buffers in stdio: keep the order of what reaches the terminal
        _ = sequence.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
