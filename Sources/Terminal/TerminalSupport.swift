import CNCursesW
import Foundation

/// What the terminal can do, checked before curses starts.
public enum TerminalSupport {
    /// Why `term` cannot run the full-screen UI (unset, `dumb`, or unknown to terminfo), with the fix; nil
    /// when it can. Asked before `initscr`, which would print its own error and exit with status 1.
    public static func problem(term: String?) -> String? {
        guard let term, !term.isEmpty else {
            return "timeline tui: TERM is not set, so the screen cannot be drawn; set TERM (for example "
                + "`export TERM=xterm-256color`) or use `timeline list`"
        }
        guard tl_terminal_can_draw(term) == 1 else {
            let why = term == "dumb" ? "cannot move the cursor" : "is unknown to terminfo or cannot move the cursor"
            return "timeline tui: TERM=\(term) \(why); set TERM to your terminal's type (for example "
                + "`export TERM=xterm-256color`) or use `timeline list`"
        }
        return nil
    }

    /// True when the locale (from the environment: LC_ALL, LC_CTYPE, LANG) uses UTF-8. Under `C`/`POSIX` or
    /// another charset, the UI draws ASCII stand-ins instead of glyphs the terminal would show as blanks.
    public static func localeIsUTF8() -> Bool {
        setlocale(LC_ALL, "")
        guard let codeset = tl_locale_codeset() else { return false }
        let name = String(cString: codeset).lowercased().replacingOccurrences(of: "-", with: "")
        return name == "utf8"
    }
}
