import TimelineCore

/// Semantic colour roles; the terminal backend maps them to real colours (or none with NO_COLOR).
public enum ColorRole: String, Sendable, Hashable, CaseIterable {
    case info, inProgress, success, warning, error, needsInput
    case accent, muted, selection, highlight, headerBar, statusBar, border
}

/// How one cell is drawn: semantic colours plus attributes that survive without colour.
public struct Style: Sendable, Hashable {
    public var fg: ColorRole?
    public var bg: ColorRole?
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(fg: ColorRole? = nil, bg: ColorRole? = nil, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.fg = fg
        self.bg = bg
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()

    /// The same style with another foreground.
    public func with(fg: ColorRole?) -> Style { var s = self; s.fg = fg; return s }
    /// The same style in bold.
    public var bolded: Style { var s = self; s.bold = true; return s }

    /// Short human-readable description used by golden style legends, e.g. `fg=error bold`.
    public var legend: String {
        var parts: [String] = []
        if let fg { parts.append("fg=\(fg.rawValue)") }
        if let bg { parts.append("bg=\(bg.rawValue)") }
        if bold { parts.append("bold") }
        if dim { parts.append("dim") }
        if reverse { parts.append("reverse") }
        if underline { parts.append("underline") }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}

extension Status {
    /// The colour role of a status.
    public var colorRole: ColorRole {
        switch self {
        case .info: .info
        case .inProgress: .inProgress
        case .success: .success
        case .warning: .warning
        case .error: .error
        case .needsInput: .needsInput
        }
    }
}
