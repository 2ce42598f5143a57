/// Cutting long text for titles and bodies: one rule, head and tail kept.
public enum TextCut {
    /// The most characters a body keeps (the rest is cut out of the middle).
    public static let bodyCharacters = 4_000
    /// The most characters a title keeps.
    public static let titleCharacters = 160

    /// `text` when it has at most `limit` characters, else its head and tail around a marker saying how
    /// much was cut: the start says what was asked, the end what happened.
    public static func headAndTail(_ text: String, limit: Int = bodyCharacters) -> String {
        guard text.count > limit else { return text }
        let keep = max(2, limit - 40)
        let head = text.prefix(keep * 2 / 3)
        let tail = text.suffix(keep - head.count)
        return "\(head)\n… [\(text.count - head.count - tail.count) characters cut] …\n\(tail)"
    }

    /// The first non-blank line of `text`, cut to `limit` characters with an ellipsis.
    public static func firstLine(_ text: String, limit: Int = titleCharacters) -> String {
        let line = text.split(whereSeparator: \.isNewline)
            .first { !$0.allSatisfy(\.isWhitespace) }
            .map { String($0).trimmingWhitespace() } ?? ""
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
