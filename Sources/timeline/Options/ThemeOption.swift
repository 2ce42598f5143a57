import ArgumentParser
import Foundation
import TimelineConfig

/// `--theme dark|light|auto` (default: $TIMELINE_THEME, else `theme` in the config file, else auto).
struct ThemeOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Colours for a dark or light terminal background: dark, light or auto (default: $TIMELINE_THEME, else `theme` in the config file, else auto: light when COLORFGBG says the background is light).",
        valueName: "theme"))
    var theme: String?

    func validate() throws {
        if let theme, !["dark", "light", "auto"].contains(theme) {
            throw ValidationError("--theme must be dark, light or auto, not \"\(theme)\".")
        }
    }

    /// The `theme` setting and where it came from.
    func setting() throws -> Setting {
        try UserConfig.resolver().resolve("theme", flag: theme, flagName: "--theme",
                                          environmentNames: ["TIMELINE_THEME"], fallback: "auto")
    }

    /// The theme to draw with.
    func chosen() throws -> Theme {
        Theme.choose(try setting().value ?? "auto", colorFGBG: ProcessInfo.processInfo.environment["COLORFGBG"])
    }
}
