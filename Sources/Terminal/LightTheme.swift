import TimelineUI

/// 256-colour numbers for a light terminal background (`--theme light`, `theme = "light"`, or COLORFGBG):
/// darker status colours that read on white, light greys for the selection and the bars.
/// Kept apart from the dark palette so it can be pointed at whichever palette type draws.
public enum LightTheme {
    /// Foreground colour for `role`; nil for roles drawn only as backgrounds.
    public static func foreground(_ role: ColorRole) -> Int16? {
        switch role {
        case .info: 25
        case .inProgress: 136
        case .success: 28
        case .warning: 166
        case .error: 160
        case .needsInput: 164  // magenta, darker: a human is needed
        case .accent: 31
        case .muted: 242
        case .highlight: 127
        case .border: 249
        case .selection, .headerBar, .statusBar: nil
        }
    }

    /// Background colour for `role` (the selection and the header and status bars).
    public static func background(_ role: ColorRole) -> Int16? {
        switch role {
        case .selection: 253
        case .headerBar, .statusBar: 254
        default: foreground(role)
        }
    }
}
