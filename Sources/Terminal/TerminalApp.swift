import CNCursesW
import Foundation
import TimelineRuntime
import TimelineUI

/// The interactive loop: read input bytes (50 ms timeout), feed the decoded inputs to the controller, draw the diff.
public enum TerminalApp {
    /// Runs until the user quits or a termination signal arrives; the terminal is restored on return.
    public static func run(controller: TimelineController, color: Bool, light: Bool = false,
                           sideChannel: TerminalSideChannel? = nil,
                           clock: @escaping () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }) {
        let curses = CursesScreen(color: color, light: light)
        let keyboard = TerminalInput()
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
            // One wait (≤ 50 ms), then everything already queued: a held key or a paste is applied whole.
            for input in keyboard.read(timeoutMillis: 50) where running {
                dirty = true
                switch input {
                case .key(.ctrl("l")): curses.invalidate()  // full repaint: clears what other programs wrote
                case .key(.ctrl("z")): curses.suspend()
                default: running = controller.send(input)
                }
            }
            if keyboard.closed { running = false }
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
            // Input is read without ncurses' getch (where it would report KEY_RESIZE), and SIGWINCH may be
            // blocked by whatever started us (seen under pytest+tmux): the tty size itself tells (one cheap
            // ioctl per iteration).
            _ = curses.syncSizeWithTerminal()
            let fresh = curses.size
            if fresh != size {
                size = fresh
                curses.invalidate()
                controller.send(.resize(width: size.width, height: size.height))
                dirty = true
            }
            if sideChannel?.service(controller: controller, nowMicros: now) == true { dirty = true }
            if dirty {
                curses.draw(render(controller.state, width: size.width, height: size.height))
                dirty = false
            }
        }
        curses.end()
        TerminalSideOutput.write(sideChannel?.exitBytes() ?? [])
        TerminalRestore.reraiseIfSignalled()
    }
}
