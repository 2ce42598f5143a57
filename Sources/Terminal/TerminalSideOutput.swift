import Foundation
import TimelineCore
import TimelineUI

/// Output beside the drawn screen (notifications, the window title), handed to the terminal by the loop.
/// `Controller`: what the loop drives (a `TimelineDriver`), handed to `step`.
public protocol TerminalSideChannel<Controller>: AnyObject {
    associatedtype Controller
    /// Shown once before the first frame (e.g. save the title).
    func startNotices() -> [TerminalNotice]
    /// Called every loop iteration before drawing; may send inputs (true: redraw).
    func step(controller: Controller, nowMicros: Int64) -> Bool
    /// Shown between frames (sequences that do not move the cursor).
    func pendingNotices() -> [TerminalNotice]
    /// Shown after the terminal is restored (e.g. restore the title).
    func exitNotices() -> [TerminalNotice]
    /// `wake` runs (on any thread) when findings are ready for `step`, so the loop looks at them at once.
    func setWake(_ wake: @escaping @Sendable () -> Void)
}

extension TerminalSideChannel {
    /// A channel that finds nothing in the background needs no wake.
    public func setWake(_ wake: @escaping @Sendable () -> Void) {}

    /// The loop's one call per iteration: `step`, then its notices (ncurses flushed the last frame; true: redraw).
    func service(controller: Controller, nowMicros: Int64, as encoding: NoticeBytes) -> Bool {
        let changed = step(controller: controller, nowMicros: nowMicros)
        TerminalSideOutput.write(encoding.bytes(pendingNotices()))
        return changed
    }
}

/// Writes side output straight to the terminal (ncurses has flushed its frame by then).
enum TerminalSideOutput {
    static func write(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let n = rest.withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            rest = rest.dropFirst(n)
        }
    }
}
