/// The colour theme: for dark or light terminal backgrounds.
public enum Theme: String, Sendable, CaseIterable {
    case dark, light

    /// The theme for a `theme` setting (`dark`, `light`, `auto`); `auto` reads `COLORFGBG`
    /// (`fg;bg` or `fg;default;bg`, set by rxvt, Konsole and others): a background of colour 7 or 9–15 is
    /// light, anything else (or no variable) dark.
    public static func choose(_ setting: String, colorFGBG: String?) -> Theme {
        if let theme = Theme(rawValue: setting) { return theme }
        guard let last = colorFGBG?.split(separator: ";").last, let background = Int(last) else { return .dark }
        return background == 7 || (9...15).contains(background) ? .light : .dark
    }
}
