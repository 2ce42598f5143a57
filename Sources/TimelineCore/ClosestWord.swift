/// "Did you mean …?": the known word closest to a mistyped one.
public enum ClosestWord {
    /// The known word nearest to `word` by edit distance (a swap of two neighbours counts as one edit), when
    /// it is near enough to be a typo: at most one edit for words of up to four characters, two beyond.
    public static func suggestion(for word: String, among known: [String]) -> String? {
        let typed = Array(word.lowercased())
        let limit = typed.count <= 4 ? 1 : 2
        var best: (word: String, distance: Int)?
        for candidate in known where candidate != word {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
