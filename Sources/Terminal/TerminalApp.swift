import CNCursesW
import Foundation
import TimelineRuntime
import TimelineUI

/// The interactive loop, event-driven: it sleeps in `poll(2)` (`EventWait`) until a key, a background
/// result (the controller's wake handler), a write to the database (inotify on its WAL) or a signal,
/// with a timeout only for the next tick (ten a second while something animates, else one a second for
/// relative times). Then it feeds the controller and draws the diff.
public enum TerminalApp {
    /// How soon after a store write is noticed the store is looked at again: a write seen by inotify
    /// may land just before SQLite publishes the commit to readers.
    static let storeRecheckMicros: Int64 = 30_000
    /// How often `data_version` is still checked when inotify watches the store (a slow fallback).
    static let watchedChangeCheckMicros: Int64 = 5_000_000

    /// Runs until the user quits or a termination signal arrives; the terminal is restored on return.
    /// `databasePath`: watched for other processes' writes. Commits in this process (the in-process
    /// poller) are reported with `controller.checkForChangesNow()`. `light`: colours for a light background.
    public static func run(controller: TimelineController, color: Bool, light: Bool = false,
                           databasePath: String? = nil,
                           clock: @escaping () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }) {
        let curses = CursesScreen(color: color, light: light)
        defer { curses.end() }
        let wakePipe = WakePipe()
        let watcher = databasePath.flatMap(StoreWatcher.init)
        let events = EventWait(wakePipe: wakePipe, storeWatcher: watcher)
        if let wakePipe { controller.setWakeHandler { wakePipe.signal() } }
        if watcher != nil { controller.changeCheckInterval = watchedChangeCheckMicros }
        wtimeout(tl_stdscr(), 0)
        _ = curses.syncSizeWithTerminal()
        var size = curses.size
        controller.send(.resize(width: size.width, height: size.height))
        controller.send(.tick(nowMicros: clock()))
        controller.start()
        var running = true
        var lastTick = clock()
        var recheckAt: Int64?
        var dirty = true
        var woken = EventWait.Woken(terminal: true)
        while running && TerminalRestore.terminationSignal == 0 {
            if woken.terminal || woken.interrupted {
                // Everything ncurses has now (a signal may have queued KEY_RESIZE).
                while running, let input = curses.read() {
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
                }
            }
            guard running else { break }
            let now = clock()
            if woken.store {
                controller.checkForChangesNow()
                recheckAt = now + storeRecheckMicros
            } else if let due = recheckAt, now >= due {
                controller.checkForChangesNow()
                recheckAt = nil
            }
            let tickEvery: Int64 = controller.state.animating ? 100_000 : 1_000_000
            if now - lastTick >= tickEvery {
                controller.send(.tick(nowMicros: now))
                lastTick = now
                dirty = true
            }
            controller.pollBackground(nowMicros: now)
            wakePipe?.drain()
            if controller.drain() { dirty = true }
            // ncurses learns of resizes from SIGWINCH; when that signal is blocked or ignored by whatever
            // started us (seen under pytest+tmux), the tty size itself tells (one cheap ioctl per iteration).
            if curses.syncSizeWithTerminal() || curses.size != size {
                size = curses.size
                curses.invalidate()
                controller.send(.resize(width: size.width, height: size.height))
                dirty = true
            }
            if dirty {
                curses.draw(render(controller.state, width: size.width, height: size.height))
                dirty = false
            }
            var timeout = lastTick + (controller.state.animating ? 100_000 : 1_000_000) - clock()
            if let due = recheckAt { timeout = min(timeout, due - clock()) }
            woken = events.wait(timeoutMicros: timeout)
        }
        curses.end()
        TerminalRestore.reraiseIfSignalled()
    }
}
