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
