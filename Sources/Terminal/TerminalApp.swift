import CNCursesW
import Foundation
import TimelineRuntime
import TimelineUI

/// The interactive loop: read keys (50 ms timeout), feed the controller, draw the diff.
public enum TerminalApp {
    /// Runs until the user quits or a termination signal arrives; the terminal is restored on return.
    public static func run(controller: TimelineController, color: Bool, sideChannel: TerminalSideChannel? = nil,
                           clock: @escaping () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }) {
        let curses = CursesScreen(color: color)
        defer { curses.end() }
        TerminalSideOutput.write(sideChannel?.startBytes() ?? [])
        _ = curses.syncSizeWithTerminal()
        var size = curses.size
        controller.send(.resize(width: size.width, height: size.height))
        controller.send(.tick(nowMicros: clock()))
        controller.start()
        var running = true
        var lastTick: Int64 = 0
        var dirty = true
        while running && TerminalRestore.terminationSignal == 0 {
            // One blocking read (≤ 50 ms), then everything already queued.
            var next = curses.read()
            while let input = next, running {
                dirty = true
                switch input {
                case .key(let raw):
                    if let key = InputDecoder.decode(raw) { running = controller.send(key) }
                case .mouse(let raw):
                    if let event = InputDecoder.decode(raw) { running = controller.send(event) }
                case .resize:
                    size = curses.size
                    curses.invalidate()
                    controller.send(.resize(width: size.width, height: size.height))
                case .ignored:
                    break
                }
                wtimeout(tl_stdscr(), 0)
                next = curses.read()
            }
            wtimeout(tl_stdscr(), 50)
            guard running else { break }
            let now = clock()
            // Spinners and countdowns need 10 frames a second; relative times only one.
            if now - lastTick >= (controller.state.animating ? 100_000 : 1_000_000) {
                controller.send(.tick(nowMicros: now))
                lastTick = now
                dirty = true
            }
            controller.pollBackground(nowMicros: now)
            if controller.drain() { dirty = true }
            // ncurses learns of resizes from SIGWINCH; when that signal is blocked or ignored by whatever
            // started us (seen under pytest+tmux), the tty size itself tells (one cheap ioctl per iteration).
            _ = curses.syncSizeWithTerminal()
            let fresh = curses.size
            if fresh != size {
                size = fresh
                curses.invalidate()
                controller.send(.resize(width: size.width, height: size.height))
                dirty = true
            }
            if let sideChannel, sideChannel.step(controller: controller, nowMicros: now) { dirty = true }
            if dirty {
                curses.draw(render(controller.state, width: size.width, height: size.height))
                dirty = false
            }
            if let sideChannel { TerminalSideOutput.write(sideChannel.pendingBytes()) }
        }
        curses.end()
        TerminalSideOutput.write(sideChannel?.exitBytes() ?? [])
        TerminalRestore.reraiseIfSignalled()
    }
}
