import CNCursesW
import TimelineUI

/// One read from the terminal (`CursesScreen.read`).
enum RawInput: Sendable, Equatable {
    case key(RawKey)
    case mouse(RawMouse)
    /// The terminal changed size (the loop asks curses for the new size and repaints).
    case resize
    /// A read that carries nothing for the UI (a mouse report `getmouse` could not fetch).
    case ignored
}

/// What `wget_wch` returned: a character (`OK`) or a function-key code (`KEY_CODE_YES`).
enum RawKey: Sendable, Equatable {
    /// A Unicode scalar value, control characters included.
    case character(UInt32)
    /// An ncurses key code (`KEY_DOWN`, `KEY_NPAGE`, …).
    case keyCode(Int32)
}

/// A mouse report reduced to what the UI uses (from ncurses' `MEVENT`).
struct RawMouse: Sendable, Equatable {
    var x: Int, y: Int
    var button1: Bool, wheelUp: Bool, wheelDown: Bool
    init(x: Int, y: Int, button1: Bool = false, wheelUp: Bool = false, wheelDown: Bool = false) {
        self.x = x; self.y = y; self.button1 = button1; self.wheelUp = wheelUp; self.wheelDown = wheelDown
    }
}

/// Turns what ncurses reads into semantic `Input`: the one place that knows terminal key codes.
/// Pure and stateless, so every mapping is unit-tested with codes in and `Input` out. To decode more
/// (further key codes, or raw escape sequences ncurses passes through as ESC + characters), add cases
/// here; a sequence decoder that needs state would keep it in a value owned by the terminal loop.
enum InputDecoder {
    /// A key, or nil for what the UI does not bind (unknown function keys, other control characters).
    static func decode(_ raw: RawKey) -> Input? {
        key(raw).map(Input.key)
    }

    /// Wheel before button: a wheel report may carry a button bit too. Nil for other mouse reports.
    static func decode(_ mouse: RawMouse) -> Input? {
        if mouse.wheelUp { return .mouse(.wheelUp(x: mouse.x, y: mouse.y)) }
        if mouse.wheelDown { return .mouse(.wheelDown(x: mouse.x, y: mouse.y)) }
        if mouse.button1 { return .mouse(.click(x: mouse.x, y: mouse.y)) }
        return nil
    }

    private static func key(_ raw: RawKey) -> Key? {
        switch raw {
        case .keyCode(let code):
            switch code {
            case KEY_DOWN: return .down
            case KEY_UP: return .up
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_NPAGE: return .pageDown
            case KEY_PPAGE: return .pageUp
            case KEY_BACKSPACE: return .backspace
            case KEY_DC: return .delete
            case KEY_ENTER: return .enter
            case KEY_BTAB: return .backTab
            default: return nil
            }
        case .character(let value):
            switch value {
            case 0x0A, 0x0D: return .enter
            case 0x09: return .tab
            case 0x1B: return .escape
            case 0x08, 0x7F: return .backspace
            case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(value) + 0x60)))
            case 0x00...0x1F, 0x80...0x9F: return nil  // C0 and C1 controls never become keys
            default:
                guard let scalar = Unicode.Scalar(value) else { return nil }
                return .char(Character(scalar))
            }
        }
    }
}
