import Foundation

/// The clock and random source behind the poller's backoff and give-up decisions, injectable so tests
/// can run the retry logic in milliseconds (`random` 0 makes every backoff delay 0; `now` can jump ahead).
public struct PollerTiming: Sendable {
    public var now: @Sendable () -> Date
    /// Uniform in 0..<1: the jitter of each backoff delay.
    public var random: @Sendable () -> Double

    public init(now: @escaping @Sendable () -> Date = { Date() },
                random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.now = now
        self.random = random
    }

    public static let system = PollerTiming()
}
