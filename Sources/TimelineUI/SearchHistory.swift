/// The `/` prompt's history: searches kept with ⏎, recalled with ↑ (older) and ↓ (newer, then what was being
/// typed), kept across restarts (the runtime stores them: `Effect.rememberSearches`).
public enum SearchHistory {
    /// Searches kept; the oldest go first.
    public static let limit = 100

    /// `entries` as kept: blank and repeated searches dropped (the latest use wins), the newest `limit`.
    public static func bounded(_ entries: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for entry in entries.reversed() where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
            if seen.insert(entry).inserted { out.append(entry) }
            if out.count == limit { break }
        }
        return out.reversed()
    }

    /// ⏎ in the prompt: the search joins the history (at its newest end).
    static func keep(_ s: inout AppState) -> [Effect] {
        let text = s.search.text
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty, s.search.history.last != text else { return [] }
        s.search.history = bounded(s.search.history + [text])
        return [.rememberSearches(s.search.history)]
    }

    /// ↑ / ↓ in the prompt: the previous or next kept search replaces the text (and runs).
    static func recall(_ s: inout AppState, older: Bool) -> [Effect] {
        let history = s.search.history
        guard !history.isEmpty else { return [] }
        let next: Int?
        switch (s.search.recalled, older) {
        case (nil, true): s.search.draft = s.search.text; next = history.count - 1
        case (nil, false): return []
        case (let i?, true): next = max(0, i - 1)
        case (let i?, false): next = i + 1 < history.count ? i + 1 : nil
        }
        s.search.recalled = next
        let text = next.map { history[$0] } ?? s.search.draft
        guard text != s.search.text else { return [] }
        s.search.text = text
        return searchChanged(&s)
    }
}
