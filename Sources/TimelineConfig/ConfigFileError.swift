import TimelineCore

/// The config file could not be used: where (file and line), which key, and how to fix it.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// 1-based line, when known.
    public var line: Int?
    /// The key at fault (`region`, `views.prod.query`), when known.
    public var key: String?
    public var problem: String
    public var fix: String

    public var description: String {
        let place = DisplayText.escaped(path) + (line.map { ":\($0)" } ?? "")
        let what = key.map { "key \"\(DisplayText.escaped($0))\": " } ?? ""
        return "\(place): \(what)\(problem)\nFix: \(fix)"
    }
}
