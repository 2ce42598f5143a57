/// ncurses key codes (values from `<curses.h>`, ncurses 6). The terminal backend checks at start-up
/// that they equal the library's macros, so decoding can be tested without a terminal.
public enum CursesKeyCode {
    public static let down: Int32 = 0o402
    public static let up: Int32 = 0o403
    public static let left: Int32 = 0o404
    public static let right: Int32 = 0o405
    public static let home: Int32 = 0o406
    public static let backspace: Int32 = 0o407
    public static let deleteChar: Int32 = 0o512
    public static let nextPage: Int32 = 0o522
    public static let previousPage: Int32 = 0o523
    public static let enter: Int32 = 0o527
    public static let backTab: Int32 = 0o541
    public static let end: Int32 = 0o550
    public static let mouse: Int32 = 0o631
    public static let resize: Int32 = 0o632
}

/// What `wget_wch` returned: a character or a function-key code.
public enum RawKey: Sendable, Equatable {
    case character(UInt32)
    case keyCode(Int32)
}

/// A mouse report reduced to what the UI uses (from ncurses' MEVENT).
public struct RawMouse: Sendable, Equatable {
    public var x: Int, y: Int
    public var button1: Bool, wheelUp: Bool, wheelDown: Bool
    public init(x: Int, y: Int, button1: Bool = false, wheelUp: Bool = false, wheelDown: Bool = false) {
        self.x = x; self.y = y; self.button1 = button1; self.wheelUp = wheelUp; self.wheelDown = wheelDown
    }
}

/// Turns raw terminal input into `Key`s and `MouseEvent`s. Pure and stateless.
public enum KeyDecoder {
    public static func decode(_ raw: RawKey) -> Key? {
        switch raw {
        case .keyCode(let code):
            switch code {
            case CursesKeyCode.down: return .down
            case CursesKeyCode.up: return .up
            case CursesKeyCode.left: return .left
            case CursesKeyCode.right: return .right
            case CursesKeyCode.home: return .home
            case CursesKeyCode.end: return .end
            case CursesKeyCode.nextPage: return .pageDown
            case CursesKeyCode.previousPage: return .pageUp
            case CursesKeyCode.backspace: return .backspace
            case CursesKeyCode.deleteChar: return .delete
            case CursesKeyCode.enter: return .enter
            case CursesKeyCode.backTab: return .backTab
            default: return nil
            }
        case .character(let value):
            switch value {
            case 0x0A, 0x0D: return .enter
            case 0x09: return .tab
            case 0x1B: return .escape
            case 0x08, 0x7F: return .backspace
            case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(value) + 0x60)))
            case 0x00...0x1F, 0x80...0x9F: return nil
            default:
                guard let scalar = Unicode.Scalar(value) else { return nil }
                return .char(Character(scalar))
            }
        }
    }

    public static func decode(_ mouse: RawMouse) -> MouseEvent? {
        if mouse.wheelUp { return .wheelUp(x: mouse.x, y: mouse.y) }
        if mouse.wheelDown { return .wheelDown(x: mouse.x, y: mouse.y) }
        if mouse.button1 { return .click(x: mouse.x, y: mouse.y) }
        return nil
    }
}
