/// The one palette: the colour of every role (and so of every status, through `Status.colorRole`), as an
/// xterm 256-colour index with an 8-colour fallback. Backends only map it: ncurses in `Terminal/Palette`,
/// SGR escapes for `timeline list` and `rejected` in `TerminalStyle`.
public struct RoleColor: Sendable, Equatable {
    /// The ANSI/curses 8-colour numbers.
    public enum Basic: Int16, Sendable { case black = 0, red, green, yellow, blue, magenta, cyan, white }

    public var xterm256: Int16
    public var basic: Basic
}

extension ColorRole {
    /// Foreground colour; nil: the terminal's default.
    public var foreground: RoleColor? {
        switch self {
        case .info: RoleColor(xterm256: 39, basic: .blue)
        case .inProgress: RoleColor(xterm256: 220, basic: .yellow)
        case .success: RoleColor(xterm256: 78, basic: .green)
        case .warning: RoleColor(xterm256: 208, basic: .magenta)  // orange; distinct from yellow without it
        case .error: RoleColor(xterm256: 203, basic: .red)
        case .needsInput: RoleColor(xterm256: 201, basic: .cyan)  // magenta: a human is needed (magenta is warning's in eight colours)
        case .accent: RoleColor(xterm256: 81, basic: .cyan)
        case .muted: RoleColor(xterm256: 245, basic: .white)
        case .highlight: RoleColor(xterm256: 213, basic: .magenta)
        case .border: RoleColor(xterm256: 240, basic: .white)
        case .selection, .headerBar, .statusBar: nil
        }
    }

    /// Background colour when the role is used as one (bars and the selection; others: their foreground).
    public var background: RoleColor? {
        switch self {
        case .selection: RoleColor(xterm256: 238, basic: .blue)
        case .headerBar, .statusBar: RoleColor(xterm256: 235, basic: .black)
        default: foreground
        }
    }
}
