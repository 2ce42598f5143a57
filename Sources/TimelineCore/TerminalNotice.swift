/// Something to tell the person at the terminal beside the drawn screen: what, not how. `Terminal` is the
/// one place that turns a notice into bytes, for the terminal at hand.
public enum TerminalNotice: Equatable, Sendable {
    /// A notification: its title and body (raw text; made safe where it becomes bytes).
    case notification(title: String, body: String)
    /// Set the window title (the fleet line).
    case windowTitle(String)
    /// Keep the window title as it was, to be put back by `restoreWindowTitle` (before the first frame).
    case saveWindowTitle
    /// Put back the title kept by `saveWindowTitle` (after the terminal is restored).
    case restoreWindowTitle
}

/// Notification text as one field, for every channel (terminal sequences, window title, notify-send):
/// `DisplayText.sanitize` (no controls, escape sequences or bidi overrides; line breaks shown as ⏎), then
/// cut to a limit with an ellipsis.
public enum NotificationField {
    /// Longest title / body / window title carried (characters).
    public static let titleLimit = 80
    public static let bodyLimit = 240
    public static let windowTitleLimit = 120

    public static func text(_ text: String, limit: Int) -> String {
        let clean = DisplayText.sanitize(text)
        return clean.count <= limit ? clean : String(clean.prefix(limit - 1)) + "…"
    }
}
