import Foundation

/// A progress bar on stderr, drawn only when stderr is a terminal, at most ten times a second.
/// Without a known total it shows only the detail text.
struct ProgressBar {
    let total: Int64?
    private let enabled = TerminalStyle.isTerminal(STDERR_FILENO)
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    init(total: Int64?) { self.total = total }

    /// Redraws with `done` out of `total` and a short detail text (throttled).
    mutating func update(done: Int64, detail: @autoclosure () -> String) {
        guard enabled, ContinuousClock.now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = .now
        var text = "\r\u{1B}[K"
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let width = 30
            let filled = Int(fraction * Double(width))
            text += "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + "] "
            text += String(format: "%3.0f%% ", fraction * 100)
        }
        text += detail()
        FileHandle.standardError.write(Data(text.utf8))
        drawn = true
    }

    /// Erases the bar (before other stderr output and at the end).
    mutating func clear() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
