import Testing
import TimelineCore

/// Durations are written in the form the parser reads, so what is printed can be typed back.
@Suite struct DurationTextTests {
    @Test func largestUnitsFirstWithoutZeroParts() {
        #expect(DurationText.text(seconds: 0) == "0s")
        #expect(DurationText.text(seconds: -5) == "0s")
        #expect(DurationText.text(seconds: 45) == "45s")
        #expect(DurationText.text(seconds: 600) == "10m")
        #expect(DurationText.text(seconds: 5_400) == "1h30m")
        #expect(DurationText.text(seconds: 2_592_000) == "30d")
        #expect(DurationText.text(seconds: 90_061) == "1d1h1m1s")
    }

    @Test func whatIsWrittenParsesBack() {
        for seconds: Int64 in [1, 59, 60, 61, 3_599, 3_600, 86_399, 86_400, 1_209_600, 123_456_789, 863_999_913_600] {
            #expect(DurationText.seconds(DurationText.text(seconds: seconds)) == seconds, "\(seconds)")
        }
    }
}

/// Spans of time on the screen (running for, waiting for, ETA, time in the queue).
@Suite struct DurationSpanTests {
    @Test func twoUnitsAtMostRoundedDown() {
        #expect(DurationText.span(micros: 45_000_000) == "45s")
        #expect(DurationText.span(micros: 750_000_000) == "12m 30s")
        #expect(DurationText.span(micros: 750_000_000, short: true) == "12m")
        #expect(DurationText.span(micros: 3_900_000_000) == "1h 05m")
        #expect(DurationText.span(micros: 3_900_000_000, short: true) == "1h05m")
        #expect(DurationText.span(micros: 183_600_000_000) == "2d 03h")
        #expect(DurationText.span(micros: -5) == "0s")
    }

    @Test func hundredthsUnderTenSeconds() {
        #expect(DurationText.span(micros: 40_000, hundredths: true) == "0.04s")
        #expect(DurationText.span(micros: 1_259_999, hundredths: true) == "1.25s")
        #expect(DurationText.span(micros: 9_999_999, hundredths: true) == "9.99s")
        #expect(DurationText.span(micros: 10_000_000, hundredths: true) == "10s")
        #expect(DurationText.span(micros: 300_000_000, hundredths: true) == "5m 00s")
        #expect(DurationText.span(micros: -1, hundredths: true) == "0.00s")
        #expect(DurationText.span(micros: 1_250_000) == "1s", "whole seconds unless asked")
    }
}

/// Durations in words (doctor's queue attributes, the poller's give-up messages).
@Suite struct DurationProseTests {
    @Test func oneUnitRoundedDown() {
        #expect(DurationText.prose(seconds: 45) == "45 s")
        #expect(DurationText.prose(seconds: 119) == "119 s")
        #expect(DurationText.prose(seconds: 600) == "10 min")
        #expect(DurationText.prose(seconds: 43_200) == "12 h")
        #expect(DurationText.prose(seconds: 345_600) == "4 days")
        #expect(DurationText.prose(seconds: -1) == "0 s")
    }
}
