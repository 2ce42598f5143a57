/// Capped exponential backoff with full jitter (the AWS architecture blog's "Full Jitter").
///
/// The n-th consecutive failure waits a random time in `0 ..< min(cap, base * 2^n)`. The cap is low
/// (default 1.5 s) so that polling resumes within 2 s of the endpoint coming back.
public struct Backoff: Sendable {
    public var base: Double
    public var cap: Double
    /// Consecutive failures so far.
    public private(set) var failures = 0

    public init(base: Double = 0.1, cap: Double = 1.5) {
        self.base = base
        self.cap = cap
    }

    /// The upper bound of the next delay, before jitter.
    public var ceiling: Double { min(cap, base * Double(1 << min(failures, 30))) }

    /// Records a failure and returns how long to wait, using `random` in 0..<1 for the jitter.
    public mutating func nextDelay(random: Double = Double.random(in: 0..<1)) -> Double {
        let delay = ceiling * random
        failures += 1
        return delay
    }

    /// Records a success: the next failure starts from `base` again.
    public mutating func reset() { failures = 0 }
}
