import Foundation
import SharedRules
import TimelineCore

/// Turns a report into the event payload: task `AGENT:SESSION`, agent `AGENT@HOST`, the project as the
/// category; title and body sanitized, secrets redacted, long text cut head and tail.
public struct HookEventBuilder: Sendable {
    public var agent: HookAgent
    /// The short host name (up to the first dot).
    public var host: String
    public var now: @Sendable () -> Date
    public var newID: @Sendable () -> String

    public init(agent: HookAgent, host: String = HookEventBuilder.shortHostName(),
                now: @escaping @Sendable () -> Date = { Date() },
                newID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }) {
        self.agent = agent
        self.host = host
        self.now = now
        self.newID = newID
    }

    /// The validated event JSON for `report`; nil when it cannot be made valid (it always can, but the
    /// parser has the last word).
    public func payload(for report: HookReport) -> String? {
        let title = clean(TextCut.firstLine(SecretRedaction.redact(report.title), limit: TextCut.titleCharacters))
        let body = TextCut.headAndTail(
            DisplayText.sanitizeLines(SecretRedaction.redact(report.body)).joined(separator: "\n"))
        let micros = Int64((now().timeIntervalSince1970 * 1_000_000).rounded(.down))
        let text = EventEncoder.json(
            id: newID(), agentID: cut("\(agent.rawValue)@\(host)", bytes: EventLimits.idBytes),
            taskID: cut("\(agent.rawValue):\(report.session)", bytes: EventLimits.idBytes),
            title: title.isEmpty ? agent.displayName : title, status: report.status.rawValue,
            timestamp: TimeFormat.iso8601(micros: micros), body: body.isEmpty ? nil : body,
            category: ProjectName.of(cwd: report.cwd).map { cut(clean($0), bytes: EventLimits.categoryBytes) },
            isStep: report.isStep)
        guard case .success = EventParser.parse(text) else { return nil }
        return text
    }

    private func clean(_ text: String) -> String { DisplayText.sanitize(text) }

    /// `text` within `bytes` UTF-8 bytes, cut at a character boundary.
    private func cut(_ text: String, bytes: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            used += character.utf8.count
            if used > bytes { break }
            out.append(character)
        }
        return out
    }

    /// This machine's host name up to the first dot.
    public static func shortHostName() -> String {
        let name = ProcessInfo.processInfo.hostName
        return name.split(separator: ".").first.map(String.init) ?? (name.isEmpty ? "localhost" : name)
    }
}
