import Foundation

/// When `timeline poll` looks at its poller and what it logs then: a summary line a minute; with `verbose`,
/// a line each time polling starts backing off or recovers (looked for a few times a second). Pure: the
/// caller waits until `nextLook`, then asks `lines`.
public struct PollerLog {
    /// How often the summary line is logged.
    public static let summaryEvery: TimeInterval = 60
    /// How often the state is looked at when something needs it (`verbose`, notifications to send).
    public static let lookEvery: TimeInterval = 0.2

    public let verbose: Bool
    private var nextSummary: Date
    private var lastState: PollerStatus.State

    public init(verbose: Bool, status: PollerStatus, now: Date = Date()) {
        self.verbose = verbose
        nextSummary = now.addingTimeInterval(Self.summaryEvery)
        lastState = status.state
    }

    /// When to look next; `busy`: something else wants regular looks (notifications).
    public func nextLook(now: Date = Date(), busy: Bool) -> Date {
        min(nextSummary, now.addingTimeInterval(busy || verbose ? Self.lookEvery : Self.summaryEvery))
    }

    /// The lines to log now: a change of state (verbose), then the summary when it is due.
    public mutating func lines(_ status: PollerStatus, now: Date = Date()) -> [String] {
        var out: [String] = []
        if verbose, let change = PollerText.change(from: lastState, to: status.state, now: now) { out.append(change) }
        lastState = status.state
        if now >= nextSummary {
            out.append(PollerText.summary(status, now: now))
            nextSummary = now.addingTimeInterval(Self.summaryEvery)
        }
        return out
    }
}
