/// aider's `.aider.conf.yml`: `notifications: true` and `notifications-command: …`, each line marked
/// `# timeline` so that uninstall removes exactly those.
enum AiderConfigInstaller {
    static let mark = "  # timeline"

    static func install(_ text: String?, command: String) throws(HookInstallError) -> String {
        let original = text ?? ""
        let wanted = ["notifications: true" + mark, "notifications-command: \(JSONValue.quote(command))" + mark]
        var kept = lines(original).filter { !$0.hasSuffix(mark) }
        for key in ["notifications:", "notifications-command:"] where kept.contains(where: { $0.hasPrefix(key) }) {
            throw HookInstallError(".aider.conf.yml already sets \(key.dropLast()); remove it first")
        }
        if lines(original).filter({ $0.hasSuffix(mark) }) == wanted { return original }
        if let last = kept.last, last.isEmpty { kept.removeLast() }
        let body = kept.joined(separator: "\n")
        return (body.isEmpty ? "" : body + "\n") + wanted.joined(separator: "\n") + "\n"
    }

    static func uninstall(_ text: String) -> String {
        let kept = lines(text).filter { !$0.hasSuffix(mark) }
        return kept.joined(separator: "\n")
    }

    static func installed(_ text: String) -> [String] {
        lines(text).filter { $0.hasSuffix(mark) && $0.hasPrefix("notifications-command:") }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
