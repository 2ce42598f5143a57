/// Search terms shorter than a trigram (one or two characters, not all ASCII: a CJK word such as `監査`)
/// found through the trigram index instead of by reading every row.
///
/// Every indexed value ends with `SearchIndexer.valueEnd`, so each occurrence of a short term begins some
/// trigram of the index. The index's vocabulary (an `fts5vocab` table, sorted by term) lists those
/// trigrams as one range; a MATCH of any of them finds exactly the rows holding the term. All-ASCII short
/// terms keep the walk: LIKE tests them cheaply, and they are mostly the first keys of a longer word,
/// whose trigrams are common (reading their vocabulary would cost more than the walk saves).
enum ShortTerms {
    /// Most trigrams a short term may begin; a term beginning more is common, and the walk (which stops
    /// once a window is full) suits it better than a MATCH of that many phrases.
    static let trigramLimit = 64

    /// The vocabulary table of the full-text index, created per connection (`temp`: nothing is written to
    /// the file, so read-only connections can use it).
    static let vocabularyTable = "temp.search_vocabulary"
    static let createVocabulary = "CREATE VIRTUAL TABLE IF NOT EXISTS \(vocabularyTable) USING fts5vocab(main, search, 'row')"
    /// The index's trigrams in a range of terms, at most `?3` of them.
    static let trigramsInRange = "SELECT term FROM \(vocabularyTable) WHERE term >= ?1 AND term < ?2 LIMIT ?3"

    /// The form of `term` the index's vocabulary holds (lowercase, as the trigram tokenizer folds it)
    /// when the vocabulary may be searched for it: one or two characters, at least one of them not
    /// ASCII, each with a one-character lowercase form. Nil otherwise.
    static func vocabularyPrefix(of term: String) -> String? {
        let scalars = term.unicodeScalars
        guard (1...2).contains(scalars.count), !scalars.allSatisfy(\.isASCII) else { return nil }
        var folded = String.UnicodeScalarView()
        for scalar in scalars {
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            guard lower.count == 1, let first = lower.first else { return nil }
            folded.append(first)
        }
        return String(folded)
    }

    /// The end of the vocabulary range of terms beginning with `prefix` (UTF-8 order: U+10FFFF sorts last).
    static func rangeEnd(of prefix: String) -> String { prefix + "\u{10FFFF}" }
}
