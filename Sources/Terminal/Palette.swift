import CNCursesW
import TimelineUI

/// Maps the palette (`RoleColor`) to ncurses colour pairs: 256-colour, 8-colour fallback, or none (NO_COLOR).
struct Palette {
    enum Depth { case none, eight, full }
    let depth: Depth
    private var pairs: [PairKey: Int16] = [:]
    private var nextPair: Int16 = 1

    private struct PairKey: Hashable { var fg: ColorRole?; var bg: ColorRole? }

    /// Light-background colours (`LightTheme`) in 256-colour mode.
    let light: Bool

    init(depth: Depth, light: Bool = false) {
        self.depth = depth
        self.light = light
    }

    /// Foreground colour number for a role (-1: terminal default), from the one palette (`RoleColor`), or
    /// `LightTheme`'s on a light background in 256-colour mode.
    private func fgColor(_ role: ColorRole) -> Int16 {
        if light, depth == .full { return LightTheme.foreground(role) ?? -1 }
        return number(role.foreground)
    }

    private func bgColor(_ role: ColorRole) -> Int16 {
        if light, depth == .full { return LightTheme.background(role) ?? -1 }
        return number(role.background)
    }

    private func number(_ color: RoleColor?) -> Int16 {
        guard let color else { return -1 }
        switch depth {
        case .none: return -1
        case .full: return color.xterm256
        case .eight: return color.basic.rawValue
        }
    }

    /// The attributes and colour pair for a style (allocating the pair on first use).
    mutating func attributes(for style: Style) -> (attr: attr_t, pair: Int16) {
        var attr = tl_a_normal()
        var reverse = style.reverse
        if style.bold { attr |= tl_a_bold() }
        if style.underline { attr |= tl_a_underline() }
        if depth == .none {
            // Without colour: bars and the selection read as reverse video, muted as dim, matches underlined.
            if style.bg != nil { reverse.toggle() }
            if style.fg == .muted || style.dim { attr |= tl_a_dim() }
            if style.fg == .highlight { attr |= tl_a_underline() | tl_a_bold() }
            if reverse { attr |= tl_a_reverse() }
            return (attr, 0)
        }
        var bg = style.bg
        if depth == .eight && bg == .selection {
            // Eight colours leave no background that every status colour reads on: use reverse video.
            reverse.toggle()
            bg = nil
        }
        if style.dim || (depth == .eight && style.fg == .muted) { attr |= tl_a_dim() }
        if reverse { attr |= tl_a_reverse() }
        guard style.fg != nil || bg != nil else { return (attr, 0) }
        let key = PairKey(fg: style.fg, bg: bg)
        if let pair = pairs[key] { return (attr, pair) }
        guard Int(nextPair) < Int(tl_color_pairs()) else { return (attr, 0) }
        let pair = nextPair
        nextPair += 1
        init_pair(pair, style.fg.map(fgColor) ?? -1, bg.map(bgColor) ?? -1)
        pairs[key] = pair
        return (attr, pair)
    }
}
