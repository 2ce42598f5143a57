import TimelineCore

/// How fresh an in-progress task is: live (updates keep coming), quiet, or stale.
public enum Liveness: Sendable, Equatable {
    case live, quiet, stale, notRunning

    /// An in_progress row updated within this many seconds is drawn with a spinner.
    public static let liveSeconds: Int64 = 120
    /// An in_progress row with no update for this long is marked stale.
    public static let staleSeconds: Int64 = 600

    public init(_ row: TimelineRow, nowMicros: Int64) {
        guard row.event.status == .inProgress else { self = .notRunning; return }
        let age = (nowMicros - row.event.timestampMicros) / 1_000_000
        if age >= Self.staleSeconds { self = .stale } else if age < Self.liveSeconds { self = .live } else { self = .quiet }
    }
}

/// Glyphs and labels per status (distinct shapes, so they read without colour too).
public enum StatusGlyph {
    public static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    public static let stale: Character = "◌"

    public static func glyph(_ status: Status) -> Character {
        switch status {
        case .info: "●"
        case .inProgress: "◐"
        case .success: "✓"
        case .warning: "▲"
        case .error: "✗"
        case .needsInput: "?"
        }
    }

    /// Short header label.
    public static func label(_ status: Status) -> String {
        switch status {
        case .info: "info"
        case .inProgress: "running"
        case .success: "ok"
        case .warning: "warn"
        case .error: "error"
        case .needsInput: "need you"
        }
    }

    /// The glyph for a row, animated while live.
    public static func glyph(for row: TimelineRow, nowMicros: Int64) -> Character {
        switch Liveness(row, nowMicros: nowMicros) {
        case .live: spinner[Int((nowMicros / 100_000) % Int64(spinner.count))]
        case .stale: stale
        case .quiet, .notRunning: glyph(row.event.status)
        }
    }

    /// A small bar: `▰▰▰▱▱▱ 50%`.
    public static func progressBar(_ progress: Double, cells: Int) -> String {
        let p = min(100, max(0, progress))
        let filled = Int((p / 100 * Double(cells)).rounded())
        let bar = String(repeating: "▰", count: filled) + String(repeating: "▱", count: cells - filled)
        return bar + TextWidth.padLeft("\(Int(p.rounded()))%", to: 5)
    }
}

/// Time as shown in rows: relative (`12s`) or absolute.
enum TimeText {
    /// Relative (`12s`), or absolute: in full when the column is wide, else the time of day for today,
    /// `11-09 22:40` for another day of this year, `2025-11-09` for another year (local zone).
    static func row(_ micros: Int64, state: AppState, width: Int) -> String {
        if !state.absoluteTime { return Times.relative(micros, state) }
        let full = Times.absolute(micros, state)  // 2026-11-09 22:40:05
        if width >= 19 { return full }
        let now = Times.absolute(state.nowMicros, state)
        if full.prefix(10) == now.prefix(10) { return String(full.suffix(8)) }
        if full.prefix(4) == now.prefix(4) { return String(full.dropFirst(5).prefix(11)) }
        return String(full.prefix(10))
    }
}

extension AppState {
    /// True while something on screen animates (a live spinner, a retry countdown): the loop then
    /// ticks ten times a second instead of once.
    public var animating: Bool {
        if case .backingOff = poller.state { return true }
        let top = selected - selectedLine
        let visible = window.indices.clamped(to: max(0, top)..<max(0, min(window.count, top + listHeight)))
        return visible.contains { Liveness(window[$0], nowMicros: nowMicros) == .live }
    }
}
