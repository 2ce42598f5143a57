import Foundation

/// Which sessions are waiting for the user, remembered between hook runs (one empty file per waiting
/// session under the state directory). A step never flips a waiting task back, but the first tool event
/// after a wait shows the wait is over (the user answered in the agent's own terminal): that event is
/// published as a state change instead of a step, so the task reads "working" again.
public struct WaitingSessions: Sendable {
    public let directory: URL

    public init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("waiting")
    }

    /// `report` as it should be published, remembering or forgetting that its session waits.
    public func adjust(_ report: HookReport, agent: HookAgent) -> HookReport {
        let mark = directory.appendingPathComponent(Self.fileName(agent: agent, session: report.session))
        if report.status == .needsInput {
            try? HookSpool.makePrivateDirectory(directory)
            FileManager.default.createFile(atPath: mark.path, contents: nil, attributes: [.posixPermissions: 0o600])
            return report
        }
        // Informational steps (an idle reminder, the session's end) say nothing about the wait.
        if report.isStep, report.status != .inProgress { return report }
        let wasWaiting = unlink(mark.path) == 0
        guard wasWaiting, report.isStep else { return report }
        var resumed = report
        resumed.isStep = false
        return resumed
    }

    /// True while the session waits: its last state change asked for the user and nothing has moved it on
    /// since (a permission prompt's hook watches this: when it turns false, the prompt was answered in the
    /// agent's own terminal).
    public func isWaiting(agent: HookAgent, session: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(Self.fileName(agent: agent, session: session)).path)
    }

    /// A file name for a session (session ids are the agent's: keep only safe characters, bounded).
    static func fileName(agent: HookAgent, session: String) -> String {
        let safe = session.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" }
        return agent.rawValue + "-" + String(safe.prefix(120))
    }
}
