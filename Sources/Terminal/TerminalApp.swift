import CNCursesW
import Foundation
import TimelineUI

/// The interactive loop, event-driven: it sleeps in `poll(2)` (`EventWait`) until terminal input, a
/// background result (the controller's wake handler), a write to the database (inotify on its WAL) or a
/// signal, with a timeout only for the next tick (`TickCadence`: ten a second while something animates,
/// else one a second, stretched to a few seconds while ticks change nothing on screen). Then it decodes
/// the input bytes (`TerminalInput`), feeds the controller and draws the diff.
public enum TerminalApp {
    /// How soon after a store write is noticed the store is looked at again: a write seen by inotify
    /// may land just before SQLite publishes the commit to readers.
    static let storeRecheckMicros: Int64 = 30_000
    /// How often `data_version` is still checked when inotify watches the store (a slow fallback).
    static let watchedChangeCheckMicros: Int64 = 5_000_000

    /// Runs until the user quits or a termination signal arrives; the terminal is restored on return.
    /// `databasePath`: watched for other processes' writes. Commits in this process (the in-process
    /// poller) are reported with `controller.checkForChangesNow()`. `light`: colours for a light background.
    /// `sideChannel`: notifications and the terminal title, written between frames as `notices` says.
    public static func run<Driver: TimelineDriver>(
        controller: Driver, color: Bool, light: Bool = false, databasePath: String? = nil,
        sideChannel: (any TerminalSideChannel<Driver>)? = nil,
        notices: NoticeBytes = NoticeBytes(sequence: .none, tmux: false),
        clock: @escaping () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000_000) }
    ) {
        let curses = CursesScreen(color: color, light: light)
        curses.setMouse(controller.state.mouse)
        let keyboard = TerminalInput()
        defer { curses.end() }
        TerminalSideOutput.write(notices.bytes(sideChannel?.startNotices() ?? []))
        let wakePipe = WakePipe()
        let watcher = databasePath.flatMap(StoreWatcher.init)
        let events = EventWait(wakePipe: wakePipe, storeWatcher: watcher)
        if let wakePipe { controller.setWakeHandler { wakePipe.signal() } }
        if watcher != nil { controller.changeCheckInterval = watchedChangeCheckMicros }
        _ = curses.syncSizeWithTerminal()
        var size = curses.size
        controller.send(.resize(width: size.width, height: size.height))
        controller.send(.tick(nowMicros: clock()))
        controller.start()
        var running = true
        var lastTick = clock()
        var cadence = TickCadence()
        var recheckAt: Int64?
        var dirty = true
        var woken = EventWait.Woken(terminal: true)
        while running && TerminalRestore.terminationSignal == 0 {
            // Input, a background result or a store write (not a timeout, not a signal) is activity.
            let active = woken.terminal || woken.wakePipe || woken.store
            if woken.terminal {
                // Everything already queued: a held key or a paste is applied whole.
                for input in keyboard.read(timeoutMillis: 0) where running {
                    dirty = true
                    switch input {
                    case .key(.ctrl("l")): curses.invalidate()  // full repaint: clears what other programs wrote
                    case .key(.ctrl("z")): curses.suspend()
                    default: running = controller.send(input)
                    }
                }
                if keyboard.closed { running = false }
                curses.setMouse(controller.state.mouse)
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
            var ticked = false
            if now - lastTick >= cadence.interval(animating: controller.state.animating) {
                controller.send(.tick(nowMicros: now))
                lastTick = now
                dirty = true
                ticked = true
            }
            controller.pollBackground(nowMicros: now)
            wakePipe?.drain()
            if controller.drain() { dirty = true }
            // Input is read without ncurses' getch (where it would report KEY_RESIZE), and SIGWINCH may be
            // blocked by whatever started us (seen under pytest+tmux): the tty size itself tells (one cheap
            // ioctl per iteration; a SIGWINCH that does arrive interrupts the wait at once).
            _ = curses.syncSizeWithTerminal()
            if curses.size != size {
                size = curses.size
                curses.invalidate()
                controller.send(.resize(width: size.width, height: size.height))
                dirty = true
            }
            if sideChannel?.service(controller: controller, nowMicros: now, as: notices) == true { dirty = true }
            var changed = false
            if dirty {
                changed = curses.draw(render(controller.state, width: size.width, height: size.height))
                dirty = false
            }
            if active { cadence.activity() } else if ticked || changed { cadence.ticked(changedScreen: changed) }
            var timeout = lastTick + cadence.interval(animating: controller.state.animating) - clock()
            if let due = recheckAt { timeout = min(timeout, due - clock()) }
            woken = events.wait(timeoutMicros: timeout)
        }
        controller.finishActions(timeout: 2)  // a mark or pin made just before quitting is kept
        curses.end()
        TerminalSideOutput.write(notices.bytes(sideChannel?.exitNotices() ?? []))
        TerminalRestore.reraiseIfSignalled()
    }
}
