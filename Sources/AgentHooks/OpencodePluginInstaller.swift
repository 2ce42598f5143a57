/// opencode: timeline's own plugin file (`plugin/timeline.js`), written whole and removed whole. A file
/// of that name that timeline did not write is left alone.
enum OpencodePluginInstaller {
    static let header = "// Reports this opencode session to the timeline."

    static func install(_ text: String?, words: [String]) throws(HookInstallError) -> String {
        if let text, !text.hasPrefix(header) {
            throw HookInstallError("a timeline.js plugin timeline did not write is in the way; move it first")
        }
        return OpencodeHooks.plugin(command: words)
    }

    static func installed(_ text: String) -> [String] {
        text.hasPrefix(header) ? ["plugin"] : []
    }
}
