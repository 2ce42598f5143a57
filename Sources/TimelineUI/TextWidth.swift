import TimelineCore

/// The UI's single door to TimelineCore's display-width and sanitizing rules.
enum TextWidth {
    /// Columns of one grapheme.
    static func of(_ c: Character) -> Int { DisplayText.width(of: c) }

    /// Columns of a string.
    static func of(_ s: String) -> Int { DisplayText.width(of: s) }

    /// Event text made safe for a one-line cell.
    static func safe(_ s: String) -> String { DisplayText.sanitize(s) }

    /// Cuts `s` to at most `columns` columns, ending with `…` when something was cut.
    static func truncate(_ s: String, to columns: Int) -> String { DisplayText.truncate(s, toWidth: columns) }

    /// Pads with spaces on the right to exactly `columns` (truncating first when longer).
    static func pad(_ s: String, to columns: Int) -> String { DisplayText.pad(s, toWidth: columns) }

    /// Right-aligns in `columns`.
    static func padLeft(_ s: String, to columns: Int) -> String { DisplayText.pad(s, toWidth: columns, alignment: .right) }

    /// Wraps untrusted multi-line text (sanitized line by line) into rows of at most `columns`.
    static func wrapUntrusted(_ s: String, to columns: Int) -> [String] {
        DisplayText.sanitizeLines(s).flatMap { line in line.isEmpty ? [""] : DisplayText.wrap(line, toWidth: columns) }
    }

    /// Wraps one already-sanitized line.
    static func wrap(_ s: String, to columns: Int) -> [String] {
        s.isEmpty ? [""] : DisplayText.wrap(s, toWidth: columns)
    }
}

/// Times as rows and the detail view show them.
enum Times {
    static func relative(_ micros: Int64, _ state: AppState) -> String {
        TimeFormat.relative(fromMicros: micros, nowMicros: state.nowMicros)
    }

    /// An age in words: `just now` under a second, else `5m ago`.
    static func ago(_ micros: Int64, _ state: AppState) -> String {
        let age = relative(micros, state)
        return age == "now" ? "just now" : age + " ago"
    }

    static func absolute(_ micros: Int64, _ state: AppState) -> String {
        TimeFormat.absolute(micros: micros, utc: false, timeZone: state.timeZone)
    }
}
