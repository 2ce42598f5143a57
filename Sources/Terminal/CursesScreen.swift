import CNCursesW
import Foundation
import TimelineUI

/// The ncurses session: set-up, teardown, input reading and diff drawing of `Screen`s.
final class CursesScreen {
    private var palette: Palette
    private var previous: Screen?
    private(set) var active = false

    /// Starts curses on the controlling terminal. `color: false` honours NO_COLOR / --no-color; `light`
    /// picks colours for a light background.
    init(color: Bool, light: Bool = false) {
        setlocale(LC_ALL, "")
        initscr()
        raw()
        noecho()
        nonl()
        keypad(tl_stdscr(), true)
        wtimeout(tl_stdscr(), 50)
        set_escdelay(25)
        curs_set(0)
        mousemask(tl_button1_pressed() | tl_button1_clicked() | tl_button4_pressed() | tl_button5_pressed(), nil)
        mouseinterval(0)
        var depth = Palette.Depth.none
        if color && has_colors() {
            start_color()
            use_default_colors()
            depth = tl_colors() >= 256 ? .full : .eight
        }
        palette = Palette(depth: depth, light: light)
        active = true
        TerminalRestore.register { endwin() }
    }

    /// Restores the terminal exactly (idempotent).
    func end() {
        guard active else { return }
        active = false
        endwin()
    }

    var size: (width: Int, height: Int) {
        var y: Int32 = 0, x: Int32 = 0
        tl_getmaxyx(tl_stdscr(), &y, &x)
        return (Int(x), Int(y))
    }

    /// Catches a size change ncurses missed (a SIGWINCH that arrived before its handler was installed):
    /// asks the kernel for the tty size and resizes curses when they differ. True when it resized.
    func syncSizeWithTerminal() -> Bool {
        var ws = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return false }
        let current = size
        guard Int(ws.ws_col) != current.width || Int(ws.ws_row) != current.height else { return false }
        resizeterm(Int32(ws.ws_row), Int32(ws.ws_col))
        return true
    }

    /// Reads one input within the 50 ms timeout (nil on timeout).
    func read() -> RawInput? {
        var ch: wint_t = 0
        let rc = wget_wch(tl_stdscr(), &ch)
        if rc == ERR { return nil }
        if rc == KEY_CODE_YES {
            let code = Int32(ch)
            if code == KEY_RESIZE { return .resize }
            if code == KEY_MOUSE {
                var event = MEVENT()
                guard getmouse(&event) == OK else { return .ignored }
                let b = event.bstate
                return .mouse(RawMouse(x: Int(event.x), y: Int(event.y),
                                       button1: b & (tl_button1_pressed() | tl_button1_clicked()) != 0,
                                       wheelUp: b & tl_button4_pressed() != 0, wheelDown: b & tl_button5_pressed() != 0))
            }
            return .key(.keyCode(code))
        }
        return .key(.character(UInt32(ch)))
    }

    /// Forgets what is on the terminal so the next draw repaints everything (after a resize).
    func invalidate() {
        previous = nil
        clearok(tl_stdscr(), true)
    }

    /// Draws only what differs from the previous screen (`Screen.diff`), then updates the terminal once.
    func draw(_ screen: Screen) {
        if screen.redrawsFully(from: previous) { werase(tl_stdscr()) }
        for run in screen.diff(from: previous) {
            for (offset, cell) in run.cells.enumerated() { put(cell, x: run.x + offset, y: run.y) }
        }
        previous = screen
        wnoutrefresh(tl_stdscr())
        doupdate()
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        if cell.isContinuation { return }
        let (attr, pair) = palette.attributes(for: cell.style)
        let scalars = cell.character.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        if add(scalars.prefix(5), attr: attr, pair: pair, x: x, y: y), Int(tl_wcwidth(scalars[0])) >= cell.width {
            return
        }
        // setcchar takes one spacing character plus combining marks, and ncurses measures with libc's
        // wcwidth. A cluster of several spacing characters (a flag is two regional indicators of width 1;
        // ZWJ sequences) or one libc measures narrower than the cell is drawn as its leading spacing
        // characters, each with its marks, while they fit; the rest of the cell is blanked so no stale
        // character from an earlier frame stays visible.
        var column = 0
        var start = 0
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count && tl_wcwidth(scalars[end]) == 0 { end += 1 }
            let width = max(1, Int(tl_wcwidth(scalars[start])))
            guard column + width <= cell.width,
                  add(scalars[start..<min(end, start + 5)], attr: attr, pair: pair, x: x + column, y: y)
            else { break }
            column += width
            start = end
        }
        let space: ArraySlice<wchar_t> = [wchar_t(0x20)]
        while column < cell.width {
            _ = add(space, attr: attr, pair: pair, x: x + column, y: y)
            column += 1
        }
    }

    /// Draws one spacing character with its combining marks; false when ncurses refuses it.
    private func add(_ scalars: ArraySlice<wchar_t>, attr: attr_t, pair: Int16, x: Int, y: Int) -> Bool {
        var cc = cchar_t()
        var text = Array(scalars)
        text.append(0)
        guard setcchar(&cc, text, attr, pair, nil) != ERR else { return false }
        mvwadd_wch(tl_stdscr(), Int32(y), Int32(x), &cc)
        return true
    }
}
