import CNCursesW
import Foundation
import TimelineUI

/// The ncurses session: set-up, teardown, input reading and diff drawing of `Screen`s.
final class CursesScreen {
    private var palette: Palette
    private var previous: Screen?
    /// The last style drawn and its attributes (`attributes(for:)`).
    private var lastStyle: (style: Style, attributes: (attr: attr_t, pair: Int16))?
    /// Gathers each frame's output into one write (nil: ncurses writes to the terminal itself).
    private let frames = FrameCollector()
    private(set) var active = false
    /// Mouse reporting is on (`setMouse`).
    private var mouse = true

    /// Starts curses on the controlling terminal. `color: false` honours NO_COLOR / --no-color; `light`
    /// picks colours for a light background.
    init(color: Bool, light: Bool = false) {
        setlocale(LC_ALL, "")
        initscr()
        raw()
        noecho()
        nonl()
        // Keys and mouse are read as bytes by `TerminalInput` and decoded by `InputDecoder`, whatever
        // terminfo says: ncurses' own key translation stays off, and mouse reporting is switched on here.
        keypad(tl_stdscr(), false)
        curs_set(0)
        MouseReporting.set(true)
        BracketedPaste.set(true)
        var depth = Palette.Depth.none
        if color && has_colors() {
            start_color()
            use_default_colors()
            depth = tl_colors() >= 256 ? .full : .eight
        }
        palette = Palette(depth: depth, light: light)
        active = true
        TerminalRestore.register {
            FrameCollector.release()
            MouseReporting.set(false)
            BracketedPaste.set(false)
            endwin()
        }
    }

    /// Switches mouse reporting (the view's `mouse` setting): off, the terminal keeps its own selection.
    func setMouse(_ on: Bool) {
        guard on != mouse else { return }
        mouse = on
        MouseReporting.set(on)
    }

    /// Restores the terminal exactly (idempotent).
    func end() {
        guard active else { return }
        active = false
        MouseReporting.set(false)
        BracketedPaste.set(false)
        endwin()
        Self.clearWithoutAlternateScreen()
    }

    /// On a terminal without an alternate screen (no `smcup`: the Linux console), the last frame stays after
    /// `endwin` and the shell's prompt lands on its status line: clear the screen (terminfo `clear`).
    static func clearWithoutAlternateScreen() {
        let absent = UnsafeMutablePointer<CChar>(bitPattern: -1)  // tigetstr's "not a string capability"
        if let smcup = tigetstr("smcup"), smcup != absent, smcup.pointee != 0 { return }
        guard let clear = tigetstr("clear"), clear != absent else { return }
        putp(clear)
        fflush(nil)
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

    /// Leaves curses, stops the whole process group (Ctrl-Z: job control, as less and vim do, so a parent
    /// such as `make` or `sh -c` stops too and the shell gets the terminal back) and, once the shell's `fg`
    /// continues it, takes the terminal back and repaints everything on the next draw.
    func suspend() {
        MouseReporting.set(false)
        BracketedPaste.set(false)
        endwin()
        let previous = signal(SIGTSTP, SIG_DFL)
        kill(0, SIGTSTP)
        signal(SIGTSTP, previous)
        // Continued: the tty modes and screen are ours again on the next refresh.
        reset_prog_mode()
        if mouse { MouseReporting.set(true) }
        BracketedPaste.set(true)
        invalidate()
    }

    /// Forgets what is on the terminal so the next draw repaints everything (after a resize).
    func invalidate() {
        previous = nil
        clearok(tl_stdscr(), true)
    }

    /// Draws only what differs from the previous screen (`Screen.diff`), then updates the terminal once.
    /// False when nothing differed.
    @discardableResult
    func draw(_ screen: Screen) -> Bool {
        if screen.redrawsFully(from: previous) { werase(tl_stdscr()) }
        let runs = screen.diff(from: previous)
        for run in runs {
            for (offset, cell) in run.cells.enumerated() { put(cell, x: run.x + offset, y: run.y) }
        }
        previous = screen
        wnoutrefresh(tl_stdscr())
        if let frames { frames.collect { doupdate() } } else { doupdate() }
        return !runs.isEmpty
    }

    private func put(_ cell: Cell, x: Int, y: Int) {
        if cell.isContinuation { return }
        let (attr, pair) = attributes(for: cell.style)
        let scalars = cell.character.unicodeScalars
        // Nearly every cell: one scalar that libc measures at the cell's width, drawn as it is.
        if let only = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex,
           !ClusterDrawing.isDropped(only.value), only.value != ClusterDrawing.zeroWidthJoiner,
           Int(tl_wcwidth(wchar_t(bitPattern: only.value))) == Int(cell.width) {
            add(single: wchar_t(bitPattern: only.value), attr: attr, pair: pair, x: x, y: y)
            return
        }
        let plan = ClusterDrawing.plan(scalars.map(\.value), width: Int(cell.width)) { Int(tl_wcwidth(wchar_t(bitPattern: $0))) }
        var column = 0
        for piece in plan.pieces {
            guard add(piece.map { wchar_t(bitPattern: $0) }[...], attr: attr, pair: pair, x: x + column, y: y) else { break }
            column += Int(tl_wcwidth(wchar_t(bitPattern: piece[0])))
        }
        // Blank the rest of the cell, so no stale character from an earlier frame stays visible.
        while column < Int(cell.width) {
            add(single: wchar_t(0x20), attr: attr, pair: pair, x: x + column, y: y)
            column += 1
        }
    }

    /// The palette's attributes for `style`, remembered for the next cell (neighbours mostly share a style).
    private func attributes(for style: Style) -> (attr: attr_t, pair: Int16) {
        if let last = lastStyle, last.style == style { return last.attributes }
        let attributes = palette.attributes(for: style)
        lastStyle = (style, attributes)
        return attributes
    }

    /// Draws one spacing character without marks (no allocation).
    @discardableResult
    private func add(single scalar: wchar_t, attr: attr_t, pair: Int16, x: Int, y: Int) -> Bool {
        var cc = cchar_t()
        var text: (wchar_t, wchar_t) = (scalar, 0)
        let status = withUnsafePointer(to: &text) {
            $0.withMemoryRebound(to: wchar_t.self, capacity: 2) { setcchar(&cc, $0, attr, pair, nil) }
        }
        guard status != ERR else { return false }
        mvwadd_wch(tl_stdscr(), Int32(y), Int32(x), &cc)
        return true
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
