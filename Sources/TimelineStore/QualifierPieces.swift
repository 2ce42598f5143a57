import Foundation
import Synchronization

/// Picks the piece of a qualifier's needle (`agent:agent-7`) that its full-text clause looks for.
///
/// The clause only narrows the rows a query starts from (the qualifier's LIKE condition decides), so any
/// trigram of the needle will do, and the rarest is both the narrowest and the cheapest: a phrase of all the
/// needle's trigrams makes the index read the doclists of common ones ("age", "gen", "ent" of every
/// `agent-N`), which cost as much as the whole timeline. How often a trigram occurs in a column is probed
/// once (counting at most `probeLimit` rows) and remembered: which piece is picked never changes a result,
/// so a stale figure only costs speed.
final class QualifierPieces: Sendable {
    /// Rows counted per trigram probe: enough to tell a selective trigram from a common one.
    static let probeLimit = 20_000
    /// Remembered probes; forgotten all at once when full.
    static let capacity = 512

    private let occurrences = Mutex<[String: Int]>([:])

    /// The needle's rarest trigram in `column` (the needle itself when it is one trigram, or when a probe
    /// fails). `probe(column, trigram)` counts rows holding the trigram, at most `probeLimit`.
    func piece(column: String, needle: String, probe: (String, String) throws -> Int) -> String {
        let scalars = Array(needle.unicodeScalars)
        guard scalars.count > 3 else { return needle }
        var best = needle
        var bestCount = Int.max
        for start in 0...(scalars.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            guard let count = occurrences(column: column, trigram: text, probe: probe) else { return needle }
            // Ties go to the later trigram: needles tend to end in their distinguishing part (`agent-7`).
            if count <= bestCount { best = text; bestCount = count }
        }
        return best
    }

    private func occurrences(column: String, trigram: String, probe: (String, String) throws -> Int) -> Int? {
        let key = column + "\u{0}" + trigram
        if let known = occurrences.withLock({ $0[key] }) { return known }
        guard let count = try? probe(column, trigram) else { return nil }
        occurrences.withLock { occurrences in
            if occurrences.count >= Self.capacity { occurrences.removeAll(keepingCapacity: true) }
            occurrences[key] = count
        }
        return count
    }
}
