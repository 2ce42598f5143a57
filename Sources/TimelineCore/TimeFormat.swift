import Foundation
import SharedRules

/// Times as the UI and the CLI show them. All inputs are microseconds since the Unix epoch (UTC).
public enum TimeFormat {
    /// Compact age of `fromMicros` at `nowMicros`, rounded down: `now` under one second, then `12s`, `5m`, `3h`,
    /// `2d` (under a week), `3w` (under a year), `2y`. A time in the future (clock skew) gets a `+`: `+5s`.
    public static func relative(fromMicros: Int64, nowMicros: Int64) -> String {
        let future = fromMicros > nowMicros
        let (delta, overflow) = future ? fromMicros.subtractingReportingOverflow(nowMicros)
                                       : nowMicros.subtractingReportingOverflow(fromMicros)
        let seconds = (overflow ? Int64.max : delta) / 1_000_000
        if seconds < 1 { return "now" }
        let text: String
        switch seconds {
        case ..<60: text = "\(seconds)s"
        case ..<3_600: text = "\(seconds / 60)m"
        case ..<86_400: text = "\(seconds / 3_600)h"
        case ..<604_800: text = "\(seconds / 86_400)d"
        case ..<31_536_000: text = "\(seconds / 604_800)w"
        default: text = "\(seconds / 31_536_000)y"
        }
        return future ? "+" + text : text
    }

    /// `2026-11-22 03:04:05`, in UTC or in the local time zone (the offset in effect at that instant).
    public static func absolute(micros: Int64, utc: Bool, timeZone: TimeZone = .current) -> String {
        var seconds = floorDiv(micros, 1_000_000)
        if !utc { seconds += Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))) }
        let parts = CivilTime(unixSeconds: seconds)
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2)) "
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
    }

    /// RFC 3339 in UTC with microseconds: `2026-11-22T03:04:05.123456Z`. `Timestamp.parseMicros` reads it back.
    public static func iso8601(micros: Int64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(27)
        appendISO8601(micros: micros, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `iso8601(micros:)` appended to `out` as UTF-8, without building a `String` (a bulk import writes one
    /// per event).
    public static func appendISO8601(micros: Int64, to out: inout [UInt8]) {
        let parts = CivilTime(unixSeconds: floorDiv(micros, 1_000_000))
        let fraction = micros - floorDiv(micros, 1_000_000) * 1_000_000
        appendPadded(parts.year, 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(parts.month, 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendPadded(parts.day, 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendPadded(parts.hour, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(parts.minute, 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendPadded(parts.second, 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(Int(fraction), 6, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// `pad(value, digits)` appended as UTF-8.
    private static func appendPadded(_ value: Int, _ digits: Int, to out: inout [UInt8]) {
        guard value >= 0 else { out.append(contentsOf: pad(value, digits).utf8); return }
        var divisor = 1, width = 1
        while width < digits || value / divisor >= 10 { divisor *= 10; width += 1 }
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The current time in microseconds since the epoch.
    public static func nowMicros() -> Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded(.down)) }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    private static func pad(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }
}

/// A civil date and time of day from Unix seconds (proleptic Gregorian, Howard Hinnant's algorithm).
struct CivilTime: Equatable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init(unixSeconds: Int64) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : -((-unixSeconds + 86_399) / 86_400)
        let secondOfDay = Int(unixSeconds - days * 86_400)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
        second = secondOfDay % 60
        let z = Int(days) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
