/// Durations as people type them: `90s`, `15m`, `2h`, `30d`, `1w`, combined (`1h30m`), unit letters in
/// either case. The one parser for query bounds (`since:15m`), `prune --older-than`, the `retention`
/// setting and the CLI's duration flags (`--stale-after`, `--timeout-after`: `DurationArgument`).
public enum DurationText {
    /// Seconds per unit letter.
    private static let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// The longest duration: its microseconds still fit in an `Int64` (about 292,000 years).
    public static let maxSeconds = Int64.max / 1_000_000

    /// The duration in seconds, or nil unless `text` is one or more `<number><unit>` parts (s, m, h, d, w)
    /// adding up to at most `maxSeconds`.
    public static func seconds(_ text: String) -> Int64? {
        var total: Int64 = 0
        var number: Int64?
        var sawPart = false
        for character in text.lowercased() {
            if let digit = character.wholeNumberValue, character.isASCII {
                let (times, o1) = (number ?? 0).multipliedReportingOverflow(by: 10)
                let (plus, o2) = times.addingReportingOverflow(Int64(digit))
                guard !o1, !o2, plus < 10_000_000_000 else { return nil }
                number = plus
            } else if let unit = units[character], let value = number {
                let (part, o1) = value.multipliedReportingOverflow(by: unit)
                let (sum, o2) = total.addingReportingOverflow(part)
                guard !o1, !o2, sum <= maxSeconds else { return nil }
                total = sum
                number = nil
                sawPart = true
            } else {
                return nil
            }
        }
        return sawPart && number == nil ? total : nil
    }

    /// What the parser accepts, for error messages.
    public static let help = "a number with a unit: s, m, h, d or w (e.g. 15m, 2h, 30d, 1h30m)"

    /// `seconds` in the parser's own form, largest units first, zero parts left out: `30d`, `1h30m`, `45s`
    /// (`0s` for zero; negative counts as zero): `seconds` reads it back.
    public static func text(seconds: Int64) -> String {
        var left = max(0, seconds)
        guard left > 0 else { return "0s" }
        var out = ""
        for (letter, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where left >= size {
            out += "\(left / size)\(letter)"
            left %= size
        }
        return out
    }

    /// A span of time as the screen shows it, rounded down: `45s`, `12m 30s`, `1h 05m`, `2d 03h` (two units at
    /// most). `short` drops the second unit below an hour and the space: `12m`, `1h05m`, `2d03h`. `hundredths`
    /// shows a span under 10 seconds to the hundredth: `0.04s`, `1.25s`. Negative counts as zero.
    public static func span(micros: Int64, short: Bool = false, hundredths: Bool = false) -> String {
        let micros = max(0, micros)
        let s = micros / 1_000_000
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let gap = short ? "" : " "
        switch s {
        case ..<10 where hundredths: return "\(s).\(two(micros % 1_000_000 / 10_000))s"
        case ..<60: return "\(s)s"
        case ..<3_600: return short ? "\(s / 60)m" : "\(s / 60)m\(gap)\(two(s % 60))s"
        case ..<86_400: return "\(s / 3_600)h\(gap)\(two(s % 3_600 / 60))m"
        default: return "\(s / 86_400)d\(gap)\(two(s % 86_400 / 3_600))h"
        }
    }

    /// `seconds` in words, rounded down to one unit: `45 s`, `5 min` (from 2 minutes), `12 h` (from 2 hours),
    /// `4 days` (from 2 days).
    public static func prose(seconds: Int64) -> String {
        switch max(0, seconds) {
        case ..<120: "\(max(0, seconds)) s"
        case ..<7_200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3_600) h"
        default: "\(seconds / 86_400) days"
        }
    }
}
