import TimelineStore

/// The fleet at a glance, as one line: for the terminal title and `timeline status`.
public enum FleetLine {
    /// "2 need you", "1 error", "5 running" — only the parts that are not zero.
    public static func parts(_ c: FleetCounts) -> [(text: String, kind: Kind)] {
        var out: [(String, Kind)] = []
        if c.waiting > 0 { out.append((c.waiting == 1 ? "1 needs you" : "\(c.waiting) need you", .waiting)) }
        if c.errors > 0 {
            var text = c.errors == 1 ? "1 error" : "\(c.errors) errors"
            if c.unreadErrors > 0 && c.unreadErrors < c.errors { text += " (\(c.unreadErrors) unread)" }
            out.append((text, c.unreadErrors > 0 ? .unreadError : .error))
        }
        if c.running > 0 { out.append(("\(c.running) running", .running)) }
        return out
    }

    public enum Kind: Sendable { case waiting, unreadError, error, running }

    /// "timeline · 2 need you · 1 error · 5 running" ("timeline · idle" when nothing runs or needs you).
    public static func title(_ c: FleetCounts) -> String {
        let p = parts(c).map(\.text)
        return (["timeline"] + (p.isEmpty ? ["idle"] : p)).joined(separator: " · ")
    }

    /// `timeline status --format plain`: the parts, or "ok".
    public static func plain(_ c: FleetCounts) -> String {
        let p = parts(c).map(\.text)
        return p.isEmpty ? "ok" : p.joined(separator: " · ")
    }

    /// `--format tmux`: the parts with tmux `#[…]` colours (a `#` in our own text never occurs).
    public static func tmux(_ c: FleetCounts) -> String {
        let p = parts(c)
        if p.isEmpty { return "#[fg=green]ok#[default]" }
        return p.map { part in
            let colour: String
            switch part.kind {
            case .waiting: colour = "#[fg=magenta,bold]"
            case .unreadError: colour = "#[fg=red,bold]"
            case .error: colour = "#[fg=red]"
            case .running: colour = "#[fg=cyan]"
            }
            return colour + part.text + "#[default]"
        }.joined(separator: " · ")
    }

    /// `--format json`: the counts and whether something needs the user.
    /// What each format says while there is no database yet (nothing has been stored): not "ok".
    public static func noDatabase(plain: Bool = true) -> String { plain ? "no data yet" : "#[fg=colour244]no data yet#[default]" }
    /// `--format json` while there is no database yet.
    public static let noDatabaseJSON = "{\"waiting\":0,\"errors\":0,\"unread_errors\":0,\"running\":0,\"needs_attention\":false,\"database\":false}"

    public static func json(_ c: FleetCounts) -> String {
        "{\"waiting\":\(c.waiting),\"errors\":\(c.errors),\"unread_errors\":\(c.unreadErrors),"
            + "\"running\":\(c.running),\"needs_attention\":\(c.needsAttention)}"
    }
}
