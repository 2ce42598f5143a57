/// Strict RFC 3339 timestamps: `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`, normalised to UTC microseconds.
///
/// `T` and `Z` may be lower case (RFC 3339 allows it). Fractions longer than six digits are truncated, not
/// rounded. Leap seconds (`:60`) are refused. The result must lie in 1970-01-01T00:00:00Z ...
/// 9999-12-31T23:59:59.999999Z. `agent-tool/timeline_event.py` mirrors these rules and texts exactly.
public enum Timestamp {
    /// 1970-01-01T00:00:00Z.
    public static let minMicros: Int64 = 0
    /// 9999-12-31T23:59:59.999999Z.
    public static let maxMicros: Int64 = 253_402_300_799_999_999

    /// The UTC microseconds of a valid timestamp, or nil.
    public static func parseMicros(_ text: String) -> Int64? {
        if case .success(let micros) = parse(text) { return micros }
        return nil
    }

    /// The UTC microseconds, or what is wrong (a phrase like `has month 13, must be 01-12`).
    public static func parse(_ text: String) -> Result<Int64, TimestampProblem> {
        let b = Array(text.utf8)
        func digit(_ i: Int) -> Bool { i < b.count && b[i] >= 0x30 && b[i] <= 0x39 }
        func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + Int(b[$1] - 0x30) } }
        func source(_ range: Range<Int>) -> String { String(decoding: b[range], as: UTF8.self) }
        func at(_ i: Int, _ c: Character) -> Bool { i < b.count && b[i] == c.asciiValue! }

        let shapeOK = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].allSatisfy(digit)
            && at(4, "-") && at(7, "-") && (at(10, "T") || at(10, "t")) && at(13, ":") && at(16, ":")
        guard shapeOK else { return .failure(.notISO8601) }
        var i = 19
        var fraction = 0
        if at(i, ".") {
            i += 1
            let start = i
            while digit(i) { i += 1 }
            let count = i - start
            guard (1...9).contains(count) else { return .failure(.notISO8601) }
            let kept = number(start..<(start + min(count, 6)))
            fraction = kept * [1, 100_000, 10_000, 1_000, 100, 10, 1][min(count, 6)]
        }
        var offsetSeconds = 0
        var offsetRange: Range<Int>?
        if i == b.count {
            return .failure(.noTimeZone)
        } else if (at(i, "Z") || at(i, "z")) && i + 1 == b.count {
            offsetSeconds = 0
        } else if (at(i, "+") || at(i, "-")) && digit(i + 1) && digit(i + 2) && at(i + 3, ":") && digit(i + 4)
                    && digit(i + 5) && i + 6 == b.count {
            offsetRange = i..<(i + 6)
            let sign = at(i, "-") ? -1 : 1
            offsetSeconds = sign * (number((i + 1)..<(i + 3)) * 3600 + number((i + 4)..<(i + 6)) * 60)
        } else {
            return .failure(.notISO8601)
        }

        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        let hour = number(11..<13), minute = number(14..<16), second = number(17..<19)
        guard (1...12).contains(month) else {
            return .failure(.field("month \(source(5..<7)), must be 01-12"))
        }
        let daysInMonth = Self.daysIn(month: month, year: year)
        guard (1...daysInMonth).contains(day) else {
            return .failure(.field("day \(source(8..<10)), must be 01-\(daysInMonth) for \(source(0..<4))-\(source(5..<7))"))
        }
        guard hour <= 23 else { return .failure(.field("hour \(source(11..<13)), must be 00-23")) }
        guard minute <= 59 else { return .failure(.field("minute \(source(14..<16)), must be 00-59")) }
        guard second <= 59 else { return .failure(.field("second \(source(17..<19)), must be 00-59")) }
        if let range = offsetRange, number((range.lowerBound + 1)..<(range.lowerBound + 3)) > 23
            || number((range.lowerBound + 4)..<range.upperBound) > 59 {
            return .failure(.field("offset \(source(range)), must be within ±23:59"))
        }
        let days = Int64(daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        let micros = seconds * 1_000_000 + Int64(fraction)
        if micros < minMicros { return .failure(.beforeRange) }
        if micros > maxMicros { return .failure(.afterRange) }
        return .success(micros)
    }

    /// Days in a month of the proleptic Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// What is wrong with a timestamp, phrased to follow `field "timestamp" `.
public enum TimestampProblem: Error, Equatable, Sendable {
    case notISO8601
    case noTimeZone
    /// `has <detail>`, e.g. `has month 13, must be 01-12`.
    case field(String)
    case beforeRange
    case afterRange

    public var phrase: String {
        switch self {
        case .notISO8601: return "is not an ISO 8601 date-time like 2026-11-22T03:04:05Z"
        case .noTimeZone: return "has no time zone (add Z or an offset like +02:00)"
        case .field(let detail): return "has \(detail)"
        case .beforeRange: return "is before 1970-01-01T00:00:00Z"
        case .afterRange: return "is after 9999-12-31T23:59:59.999999Z"
        }
    }
}
