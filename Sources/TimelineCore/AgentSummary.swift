/// One agent as the agents view shows it: when it was last seen, what its tasks are doing, and whether it
/// takes messages (its latest event names a `reply_to`).
public struct AgentSummary: Sendable, Equatable {
    public var agentID: String
    /// The agent's newest timeline row's event: its time is "last seen"; its `reply_to` takes messages.
    public var latest: Event
    public var running: Int
    public var errors: Int
    public var waiting: Int
    public var tasks: Int

    public init(agentID: String, latest: Event, running: Int, errors: Int, waiting: Int, tasks: Int) {
        self.agentID = agentID
        self.latest = latest
        self.running = running
        self.errors = errors
        self.waiting = waiting
        self.tasks = tasks
    }

    /// The queue messages to this agent go to, when it takes any.
    public var replyTo: String? { latest.interaction.replyTo }
}

/// Lists agents (the store); read by the agents view.
public protocol AgentDirectory: AnyObject {
    /// Every agent, most recently seen first, at most `limit`.
    func agents(limit: Int) throws -> [AgentSummary]
}
