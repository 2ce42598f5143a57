import CNCursesW
import Foundation
import TimelineUI

/// The interactive loop, event-driven: it sleeps in `poll(2)` (`EventWait`) until terminal input, a
/// background result (the controller's wake handler), a write to the database (inotify on its WAL, or a
/// commit in this process), the side channel's findings or a signal, with a timeout only for the next
/// tick (`TickCadence`: ten a second while something animates, else one a second, stretched to a few
/// seconds while ticks change nothing on screen) or for what `FramePacer` holds back (a store check or a
/// frame waiting for its slot: at most 40 frames a second while the store changes; what answers the user is
/// drawn at once). Then it decodes the input bytes (`TerminalInput`), feeds the controller and draws the diff.
public enum TerminalApp {
    /// How often `data_version` is still checked when inotify watches the store (a slow fallback).
    static let watchedChangeCheckMicros: Int64 = 5_000_000

    /// Runs until the user quits or a termination signal arrives; the terminal is restored on return.
    /// `databasePath`: watched for other processes' writes. Commits in this process (the in-process
    /// poller) are reported with `controller.storeWritten()`. `light`: colours for a light background.
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
        if let wakePipe {
            controller.setWakeHandler { wakePipe.signal() }
            sideChannel?.setWake { wakePipe.signal() }
        }
        if watcher != nil { controller.changeCheckInterval = watchedChangeCheckMicros }
        _ = curses.syncSizeWithTerminal()
        var size = curses.size
        controller.send(.resize(width: size.width, height: size.height))
        controller.send(.tick(nowMicros: clock()))
        controller.start()
        var running = true
        var lastTick = clock()
        var cadence = TickCadence()
        var pacer = FramePacer()
        var dirty = true
        var answersUser = true  // what is dirty answers the user: drawn without waiting for a frame slot
        // What is dirty is incidental (a tick, the poller's status, the header's attention counts): it may
        // wait for a scheduled store check's frame.
        var incidental = false
        var woken = EventWait.Woken(terminal: true)
        while running && TerminalRestore.terminationSignal == 0 {
            // Input, a background result or a store write (not a timeout, not a signal) is activity.
            let active = woken.terminal || woken.wakePipe || woken.store
            if woken.terminal {
                // Everything already queued: a held key or a paste is applied whole.
                for input in keyboard.read(timeoutMillis: 0) where running {
                    dirty = true
                    answersUser = true
                    incidental = false
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
            var ticked = false
            if now - lastTick >= cadence.interval(animating: controller.state.animating) {
                controller.send(.tick(nowMicros: now))
                lastTick = now
                if !dirty { incidental = true }
                dirty = true
                ticked = true
            }
            controller.pollBackground(nowMicros: now)
            // Wakes are drained after what this iteration itself wakes for (a tick's, the poller's status) and
            // before anything they announce is looked at: one that comes later (a commit of this process told
            // while this iteration runs) wakes the next wait, instead of being drained unseen and its commit
            // left for the next check a frame later.
            wakePipe?.drain()
            // Writes seen while the pacer did not listen wait in the watcher until the check they fold into
            // is due; a commit of this process is taken at once (it may bring that check forward).
            var written = woken.store
            if !pacer.listensToStore, pacer.storeCheckDue(at: now), watcher?.drain() == true { written = true }
            let committedHere = controller.takeStoreWrites()
            if written || committedHere { pacer.storeWritten(at: now, here: committedHere) }
            switch pacer.takeStoreCheck(at: now) {
            case .look?: controller.checkForChangesNow()
            case .reload?: controller.reloadAfterOwnCommit()
            case nil: break
            }
            switch controller.drainResults() {
            case .none: break
            case .incidental: if !dirty { incidental = true }; dirty = true
            case .background: dirty = true; incidental = false
            case .answers: dirty = true; answersUser = true; incidental = false
            }
            // Input is read without ncurses' getch (where it would report KEY_RESIZE), and SIGWINCH may be
            // blocked by whatever started us (seen under pytest+tmux): the tty size itself tells (one cheap
            // ioctl per iteration; a SIGWINCH that does arrive interrupts the wait at once).
            _ = curses.syncSizeWithTerminal()
            if curses.size != size {
                size = curses.size
                curses.invalidate()
                controller.send(.resize(width: size.width, height: size.height))
                dirty = true
                answersUser = true
                incidental = false
            }
            // The header's attention counts (or a notifier's failure) are incidental, like the poller's status.
            if sideChannel?.service(controller: controller, nowMicros: now, as: notices) == true {
                if !dirty { incidental = true }
                dirty = true
            }
            var changed = false
            if dirty && pacer.mayDraw(at: now, answersUser: answersUser, incidental: incidental) {
                changed = curses.draw(render(controller.state, width: size.width, height: size.height))
                controller.drawn()
                pacer.drew(at: now, changedScreen: changed, incidental: incidental)
                dirty = false
                answersUser = false
                incidental = false
            }
            // A tick whose frame waits for the store's is not counted as a tick that changed nothing.
            if active { cadence.activity() } else if (ticked && !dirty) || changed { cadence.ticked(changedScreen: changed) }
            var due = lastTick + cadence.interval(animating: controller.state.animating)
            if let paced = pacer.deadline(framePending: dirty, incidental: incidental) { due = min(due, paced) }
            woken = events.wait(timeoutMicros: due - clock(), watchStore: pacer.listensToStore)
        }
        controller.finishActions(timeout: 2)  // a mark or pin made just before quitting is kept
        curses.end()
        TerminalSideOutput.write(notices.bytes(sideChannel?.exitNotices() ?? []))
        TerminalRestore.reraiseIfSignalled()
    }
}
