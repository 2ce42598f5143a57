import TestSupport
import Foundation
import Testing
@testable import TimelineCore

@Suite struct TimestampTests {
    static let instant: Int64 = 1_795_316_645_000_000  // 2026-11-22T03:04:05Z

    @Test(arguments: [
        "2026-11-22T03:04:05Z", "2026-11-22T05:04:05+02:00", "2026-11-21T21:34:05-05:30", "2026-11-23T03:03:05+23:59",
        "2026-11-21T03:05:05-23:59", "2026-11-22T03:04:05-00:00", "2026-11-22T03:04:05.000Z", "2026-11-22t03:04:05z",
        "2026-11-22T03:04:05.000000000+00:00",
    ])
    func sameInstantAcrossOffsets(text: String) {
        #expect(Timestamp.parseMicros(text) == Self.instant)
    }

    @Test func offsetsCarryAcrossDaysMonthsAndYears() {
        func utc(_ text: String) -> String? { Timestamp.parseMicros(text).map { TimeFormat.iso8601(micros: $0) } }
        #expect(utc("2027-01-01T00:30:00+01:00") == "2026-12-31T23:30:00.000000Z")
        #expect(utc("2026-12-31T23:30:00-01:00") == "2027-01-01T00:30:00.000000Z")
        #expect(utc("2024-02-29T23:00:00-02:00") == "2024-03-01T01:00:00.000000Z")
        #expect(utc("2023-03-01T00:15:00+00:30") == "2023-02-28T23:45:00.000000Z")
        #expect(utc("2000-03-01T01:00:00+02:00") == "2000-02-29T23:00:00.000000Z")
    }

    @Test func fractionsOfOneToNineDigitsAreTruncatedToMicroseconds() {
        let expected: [(String, Int64)] = [(".5", 500_000), (".05", 50_000), (".123", 123_000), (".1234", 123_400),
                                           (".123456", 123_456), (".1234567", 123_456), (".999999999", 999_999)]
        for (fraction, micros) in expected {
            #expect(Timestamp.parseMicros("2026-11-22T03:04:05\(fraction)Z") == Self.instant + micros, "\(fraction)")
        }
        #expect(Timestamp.parseMicros("2026-11-22T03:04:05.1234567890Z") == nil)
    }

    @Test func agreesWithFoundationOnRandomInstants() {
        var rng = SplitMix64(seed: 42)
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let micros = Int64(rng.next() % UInt64(Timestamp.maxMicros))
            let text = TimeFormat.iso8601(micros: micros)
            #expect(Timestamp.parseMicros(text) == micros, "\(text)")
            let wholeSeconds = String(text.prefix(19)) + "Z"
            let date = formatter.date(from: wholeSeconds)
            #expect(date.map { Int64($0.timeIntervalSince1970) } == micros / 1_000_000, "\(wholeSeconds)")
        }
    }

    @Test func rangeLimits() {
        #expect(Timestamp.parseMicros("1970-01-01T00:00:00Z") == 0)
        #expect(Timestamp.parseMicros("1969-12-31T23:59:59.999999Z") == nil)
        #expect(Timestamp.parseMicros("9999-12-31T23:59:59.999999Z") == Timestamp.maxMicros)
        #expect(Timestamp.parseMicros("9999-12-31T23:59:59.999999-00:01") == nil)
        #expect(Timestamp.parseMicros("0000-01-01T00:00:00Z") == nil)
    }
}

@Suite struct TimeFormatTests {
    static let second: Int64 = 1_000_000

    static let ages: [(Int64, String)] = [
        (0, "now"), (999_999, "now"), (12 * second, "12s"), (59 * second, "59s"), (60 * second, "1m"),
        (330 * second, "5m"), (3 * 3_600 * second, "3h"), ((86_400 - 1) * second, "23h"), (2 * 86_400 * second, "2d"),
        (6 * 86_400 * second, "6d"), (7 * 86_400 * second, "1w"), (364 * 86_400 * second, "52w"),
        (365 * 86_400 * second, "1y"), (-5 * second, "+5s"), (-2 * 3_600 * second, "+2h"),
    ]

    @Test(arguments: ages)
    func relativeAges(age: Int64, text: String) {
        let now: Int64 = 1_795_316_645_000_000
        #expect(TimeFormat.relative(fromMicros: now - age, nowMicros: now) == text)
    }

    @Test func relativeSurvivesExtremes() {
        #expect(TimeFormat.relative(fromMicros: Int64.min, nowMicros: Int64.max).hasSuffix("y"))
        #expect(TimeFormat.relative(fromMicros: Int64.max, nowMicros: Int64.min).hasPrefix("+"))
    }

    @Test func absoluteAndISO() throws {
        let micros: Int64 = 1_795_316_645_123_456
        #expect(TimeFormat.absolute(micros: micros, utc: true) == "2026-11-22 03:04:05")
        let plusTwo = try #require(TimeZone(secondsFromGMT: 7_200))
        #expect(TimeFormat.absolute(micros: micros, utc: false, timeZone: plusTwo) == "2026-11-22 05:04:05")
        let minusTen = try #require(TimeZone(secondsFromGMT: -36_000))
        #expect(TimeFormat.absolute(micros: micros, utc: false, timeZone: minusTen) == "2026-11-21 17:04:05")
        #expect(TimeFormat.iso8601(micros: micros) == "2026-11-22T03:04:05.123456Z")
        #expect(TimeFormat.iso8601(micros: 0) == "1970-01-01T00:00:00.000000Z")
        #expect(TimeFormat.iso8601(micros: -1) == "1969-12-31T23:59:59.999999Z")
        #expect(TimeFormat.iso8601(micros: Timestamp.maxMicros) == "9999-12-31T23:59:59.999999Z")
        // Outside four-digit years: the year as it is, padded to four characters.
        #expect(TimeFormat.iso8601(micros: 253_402_300_800_000_001) == "10000-01-01T00:00:00.000001Z")
        #expect(TimeFormat.iso8601(micros: -62_198_755_200_000_000) == "00-1-01-01T00:00:00.000000Z")
        var bytes: [UInt8] = Array("x".utf8)
        TimeFormat.appendISO8601(micros: micros, to: &bytes)
        #expect(bytes == Array("x2026-11-22T03:04:05.123456Z".utf8))
    }

    @Test func civilTimeMatchesFoundationCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let seconds = Int64(rng.next() % 253_402_300_800) - 5_000_000_000
            let civil = CivilTime(unixSeconds: seconds)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                from: Date(timeIntervalSince1970: Double(seconds)))
            #expect([civil.year, civil.month, civil.day, civil.hour, civil.minute, civil.second]
                    == [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second], "\(seconds)")
        }
    }
}
