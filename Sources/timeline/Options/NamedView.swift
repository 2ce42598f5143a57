import ArgumentParser
import TimelineCore

/// Named views of the config file (`[views.NAME]` with `query = "…"`), for `--view NAME`.
enum NamedView {
    /// The query text of view `name` ("" when `name` is nil); an unknown name is a `CommandFailure`.
    static func query(_ name: String?) throws -> String {
        guard let name else { return "" }
        let file = try UserConfig.file()
        guard let query = file.view(named: name) else {
            let known = file.views.map(\.name)
            throw CommandFailure("no view named \"\(DisplayText.sanitize(name))\" in \(file.path). "
                + (known.isEmpty ? "Add one: [views.\(DisplayText.sanitize(name))] then query = \"status:error\"."
                                 : "Views: \(known.joined(separator: ", "))."))
        }
        return query
    }
}

/// Query words taken with `.allUnrecognized` also catch mistyped options: a word starting with `--` (other
/// than `--` itself) is an error, not text to search for.
enum QueryWords {
    static func validate(_ words: [String]) throws {
        if let option = words.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
            throw ValidationError("Unknown option \(option) (see --help). To search for text that starts with --, "
                + "quote it in the query: '\"\(option)\"'.")
        }
    }
}
