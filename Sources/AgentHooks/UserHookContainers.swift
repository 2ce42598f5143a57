/// The containers of a JSON hooks file (`{"hooks": {"EVENT": [...]}}`) that the user had before timeline
/// first changed it (its backup): an uninstall that empties one of them keeps it, empty, as the user had it.
struct UserHookContainers {
    /// The user had a `hooks` object (possibly empty).
    var hooks = false
    /// The events the user's `hooks` object listed (possibly with an empty list).
    var events: Set<String> = []

    /// None: timeline created the file, or there is no original to go by.
    init() {}

    /// What `original` (the file before timeline's first change) holds; none when it is missing or unreadable.
    init(original: String?) {
        guard let original, let editor = try? JSONTextEditor(original), let hooks = editor.root.member("hooks") else { return }
        self.hooks = true
        events = Set(hooks.members.map(\.key))
    }
}
