/// The question an agent asked: what a reply must match to be accepted.
public struct AskedQuestion: Sendable, Equatable {
    public var eventID: String
    public var taskID: String
    public var agentID: String
    /// The action ids of the question's buttons (empty: it asked for text).
    public var offeredActions: Set<String>
    /// True when a text reply is accepted: by default only when no actions were offered.
    public var acceptsText: Bool

    public init(eventID: String, taskID: String, agentID: String, offeredActions: Set<String>, acceptsText: Bool? = nil) {
        self.eventID = eventID
        self.taskID = taskID
        self.agentID = agentID
        self.offeredActions = offeredActions
        self.acceptsText = acceptsText ?? offeredActions.isEmpty
    }
}

/// Why a reply is not accepted. `reason` is the text both this and `agent-tool/reply_acceptance.py` print
/// (shared examples: `schema/examples/reply-acceptance`); values in it are quoted and escaped.
public enum ReplyRefusal: Error, Sendable, Equatable {
    /// It answers another question (`in_reply_to`): not refused, left for its owner.
    case notThisQuestion(String)
    case noAllowlist
    case senderNotAllowed(String?)
    case replayed(String)
    case otherAgent(String)
    case otherTask(String)
    case actionNotOffered(String)
    case textNotAccepted

    public var reason: String {
        switch self {
        case .notThisQuestion(let id): return "the reply answers another question (\(ReasonText.quote(id)))"
        case .noAllowlist:
            return "no reply sender allowlist: set TIMELINE_REPLY_SENDERS (or reply_senders in the config file) "
                + "to the SenderIds allowed to answer; `timeline doctor` prints this viewer's SenderId"
        case .senderNotAllowed(let sender?):
            return "sender \(ReasonText.quote(sender)) is not in the reply sender allowlist"
        case .senderNotAllowed(nil): return "the reply has no SenderId and a reply sender allowlist is set"
        case .replayed(let id): return "reply id \(ReasonText.quote(id)) was already seen"
        case .otherAgent(let agent): return "the reply is for another agent (\(ReasonText.quote(agent)))"
        case .otherTask(let task): return "the reply is for another task (\(ReasonText.quote(task)))"
        case .actionNotOffered(let action): return "action \(ReasonText.quote(action)) was not offered"
        case .textNotAccepted: return "a text reply to a question that offered only actions"
        }
    }
}

/// The one rule for accepting a reply to a question (`timeline ask`, agents' permission prompts): it answers
/// this question, for its agent and task, with an offered action (or text where text was asked for), from an
/// allowed SQS `SenderId`, and its reply id was not seen before. Every reply to this question is remembered,
/// accepted or not, so a reply id counts once.
public struct ReplyAcceptance: Sendable {
    /// Whether a reply sender allowlist must be set.
    public enum SenderRequirement: Sendable, Equatable {
        /// No allowlist: any sender that can send to the reply queue (its queue policy decides).
        case optional
        /// No allowlist: every reply is refused (`ReplyRefusal.noAllowlist`). For grants of commands.
        case required
    }

    public let question: AskedQuestion
    public let allowedSenders: SenderAllowlist?
    public let requirement: SenderRequirement
    /// The reply ids seen for this question so far.
    public private(set) var seenReplyIDs: Set<String>

    public init(question: AskedQuestion, allowedSenders: SenderAllowlist?, requirement: SenderRequirement = .optional,
                seenReplyIDs: Set<String> = []) {
        self.question = question
        self.allowedSenders = allowedSenders
        self.requirement = requirement
        self.seenReplyIDs = seenReplyIDs
    }

    /// Accepts `reply` sent by `senderID` (the message's SQS `SenderId`), or says why not. The first failing
    /// check wins, in this order: question, sender, replay, agent, task, answer.
    public mutating func check(_ reply: Reply, senderID: String?) -> Result<Reply, ReplyRefusal> {
        guard reply.inReplyTo == question.eventID else { return .failure(.notThisQuestion(reply.inReplyTo)) }
        let firstTime = seenReplyIDs.insert(reply.id).inserted
        if let allowedSenders {
            guard allowedSenders.allows(senderID) else { return .failure(.senderNotAllowed(senderID)) }
        } else if requirement == .required {
            return .failure(.noAllowlist)
        }
        guard firstTime else { return .failure(.replayed(reply.id)) }
        guard reply.agentID == question.agentID else { return .failure(.otherAgent(reply.agentID)) }
        guard reply.taskID == question.taskID else { return .failure(.otherTask(reply.taskID)) }
        switch reply.answer {
        case .action(let action):
            guard question.offeredActions.contains(action) else { return .failure(.actionNotOffered(action)) }
        case .text:
            guard question.acceptsText else { return .failure(.textNotAccepted) }
        }
        return .success(reply)
    }
}
