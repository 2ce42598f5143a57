import TimelineCore

/// What one hook call reports, before it becomes an event: the agent's session, where it works, and the
/// step or state in words. Mappers produce these; `HookEventBuilder` adds ids, host, project and time.
public struct HookReport: Sendable, Equatable {
    /// The agent's session id (the task is `AGENT:SESSION`).
    public var session: String
    /// The working directory the agent reported (the project is derived from it).
    public var cwd: String?
    public var title: String
    public var body: String
    public var status: Status
    /// A tool-level step: shown in the task's history, never flips a waiting or finished task back.
    public var isStep: Bool

    public init(session: String, cwd: String?, title: String, body: String = "", status: Status, isStep: Bool = false) {
        self.session = session
        self.cwd = cwd
        self.title = title
        self.body = body
        self.status = status
        self.isStep = isStep
    }
}

/// Choices the user makes when installing the hook.
public struct HookOptions: Sendable, Equatable {
    /// Publish the prompts the user typed (off by default: they may hold anything).
    public var includePrompts: Bool

    public init(includePrompts: Bool = false) {
        self.includePrompts = includePrompts
    }
}
