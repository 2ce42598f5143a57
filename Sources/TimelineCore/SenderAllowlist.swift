/// Who may answer: the SQS `SenderId`s whose replies are accepted (`TIMELINE_REPLY_SENDERS`, comma-separated,
/// or the config file's `reply_senders` list). `agent-tool/reply_acceptance.py` mirrors it exactly.
///
/// An entry is an IAM user id (`AIDA…`), a role id with a session (`AROA…:session`), a role id alone
/// (`AROA…`: any session of that role, since whoever may assume the role picks the session name), or an
/// account id (`123456789012`: messages sent as that account itself, not every principal in it). Matching is
/// exact otherwise: `timeline doctor` prints the SenderId this viewer sends with.
public struct SenderAllowlist: Sendable, Equatable {
    public private(set) var entries: [String]

    /// An entry is not a SenderId; `description` says which and why.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The characters of an id part (IAM unique ids and account ids).
    static let idCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    /// The characters of a role session name (AWS: `[\w+=,.@-]`).
    static let sessionCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+=,.@-"

    /// Checked entries (at least one).
    public init(entries: [String]) throws(Problem) {
        if entries.isEmpty { throw Problem(description: "the reply sender allowlist is empty") }
        for entry in entries {
            if let problem = Self.entryProblem(entry) { throw Problem(description: problem) }
        }
        self.entries = entries
    }

    /// The list in a `TIMELINE_REPLY_SENDERS` value: comma-separated, spaces around entries ignored; nil for
    /// an empty or blank value (no allowlist).
    public static func parse(_ value: String) throws(Problem) -> SenderAllowlist? {
        let entries = value.split(separator: ",", omittingEmptySubsequences: false)
            .map { String($0).trimmingSpaces() }
        if entries.allSatisfy(\.isEmpty) { return nil }
        if entries.contains(where: \.isEmpty) {
            throw Problem(description: "the reply sender allowlist has an empty entry (two commas in a row?)")
        }
        return try SenderAllowlist(entries: entries)
    }

    /// Why `entry` is not a SenderId, or nil when it is one.
    public static func entryProblem(_ entry: String) -> String? {
        let parts = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let id = parts[0]
        let valid = !id.isEmpty && id.unicodeScalars.count <= 128
            && id.unicodeScalars.allSatisfy { idCharacters.unicodeScalars.contains($0) }
            && (parts.count == 1 || (2...64).contains(parts[1].unicodeScalars.count)
                && parts[1].unicodeScalars.allSatisfy { sessionCharacters.unicodeScalars.contains($0) })
        if valid { return nil }
        return "\(ReasonText.quote(entry)) is not a SenderId: use an IAM user id (AIDA…), a role id (AROA…, "
            + "or AROA…:session) or an account id (12 digits)"
    }

    /// True when `senderID` is allowed: an exact match, or a role id entry and a session of that role.
    public func allows(_ senderID: String?) -> Bool {
        guard let senderID, !senderID.isEmpty else { return false }
        return entries.contains { entry in
            if entry == senderID { return true }
            return !entry.contains(":") && entry.hasPrefix("AROA") && senderID.hasPrefix(entry + ":")
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (Foundation-free).
    fileprivate func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(scalars[first...last])
    }
}
