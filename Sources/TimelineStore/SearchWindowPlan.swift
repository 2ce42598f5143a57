/// How a window of rows matching full-text terms is read, and the limits of each way.
///
/// Two plans give the same rows in the same order: walking the timeline in display order, testing each row
/// with the terms' substring conditions, stops after a window of matches (its cost follows the rows walked:
/// cheap when matches are common); starting from the index's matches sorts them all (its cost follows the
/// matches: cheap when they are rare). A few matches of the newest tasks (`densitySample`, read from the
/// index newest row id first, at the cost of a screen) tell which: fewer than the sample are every match the
/// index holds (rows waiting for it are tested apart, either way); otherwise the row ids they span estimate
/// how many rows a walk tests before it fills the window.
struct SearchWindowPlan: Sendable {
    /// Most matches a probe reads to start from them (and sort them); from this many on, matches are
    /// common enough that walking the timeline in order meets a window of them soon.
    var rareMatchLimit = 2_000
    /// Most timeline rows a walk tests before the window is built from the matches instead (common terms
    /// that other conditions make rare, e.g. `agent:x word` where x never says the word).
    var walkBudget = 5_000
    /// Matches of the newest tasks read to estimate how many rows a walk tests.
    var densitySample = 64
    /// Most rows a walk is expected to test for it to be taken before the probe (about what sorting a few
    /// hundred matches costs).
    var walkEstimateLimit = 500
    /// Most rows a walk taken before the probe tests: other conditions (`status:`, `-word`) can make the
    /// sample's matches rare, and then the probe decides, as without the sample.
    var walkBeforeProbeBudget = 1_000
    /// A plan taken whatever the sample says (tests compare the plans on one store).
    var forced: Source?

    /// Where a window's rows came from.
    enum Source: Equatable, Sendable {
        /// The timeline in display order, each row tested.
        case walk
        /// The index's matches, sorted.
        case matches
    }

    static let automatic = SearchWindowPlan()

    /// Whether a walk should come before the probe for a window of `limit` rows: `sample` holds the
    /// newest tasks' matches (row ids, descending), a full `densitySample` of them, spanning few enough
    /// row ids that about `walkEstimateLimit` rows hold a window of matches.
    func walksFirst(sample: [Int64], limit: Int) -> Bool {
        guard sample.count >= densitySample, densitySample > 0, let newest = sample.first, let oldest = sample.last else {
            return false
        }
        let span = Double(newest - oldest + 1)
        return Double(limit) * span / Double(sample.count) <= Double(walkEstimateLimit)
    }
}
