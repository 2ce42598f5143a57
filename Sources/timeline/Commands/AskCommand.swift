import ArgumentParser
import Foundation
import ReplyDelivery
import SQSClient
import TimelineConfig
import TimelineCore

/// `timeline ask`: for shell scripts. Publishes a `needs_input` event with actions and `reply_to`, waits for
/// the reply to it on the reply queue, prints the chosen action id (or the text) and publishes a follow-up.
/// Same flags and exit codes as `publish_event.py --ask`.
struct AskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "Ask a human and wait: prints the chosen action id (or the text reply).",
        discussion: """
            Example: if [ "$(timeline ask --title 'Deploy billing v1.3 to prod?' --action deploy:Deploy \\
                --action cancel:Cancel --agent-id deployer)" = deploy ]; then ./deploy.sh; fi
            Only a reply to this question, for its agent and task, with an offered action (text only when no \
            --action is given), seen once, is accepted; with TIMELINE_REPLY_SENDERS (or reply_senders in the \
            config file) set, only from those SQS SenderIds. Others to this question are deleted and reported on \
            stderr as refused; replies to other questions are left for their owner. The answer is printed with \
            control characters escaped (\\n, \\u001B) and backslashes doubled.
            Exit codes: 0 answered, 3 no answer before --timeout, 2 invalid input, 1 AWS or network error.
            """)

    @Option(help: "The question (required).") var title: String?
    @Option(name: .customLong("action"), help: ArgumentHelp(
        "A button as id:Label, e.g. deploy:Deploy (repeatable, 1-6; none: a text reply is expected).", valueName: "id:label"))
    var actions: [String] = []
    @Option(name: .customLong("reply-queue-url"), help: ArgumentHelp(
        "Queue the answer comes back on (default: $TIMELINE_REPLY_QUEUE_URL).", valueName: "url"))
    var replyQueueURL: String?
    @Option(help: "Seconds to wait for an answer.") var timeout: Int = 600
    @Option(name: .customLong("agent-id"), help: "Which agent asks (required; default: $TIMELINE_AGENT_ID).")
    var agentID: String?
    @Option(name: .customLong("task-id"), help: "Task the question belongs to (default: the event id).")
    var taskID: String?
    @Option(help: "Details for the human.") var body: String?
    @Option(help: "Free text for filtering, e.g. deploy.") var category: String?

    @OptionGroup var queue: QueueOptions

    func validate() throws {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second.") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let question: Question
        switch Question.make(self, environment: environment) {
        case .success(let made): question = made
        case .failure(let failure):
            throw CommandFailure("invalid event: \(failure.message)", exitCode: ExitStatus.unusable)
        }
        let allowlist: SenderAllowlist?
        do {
            allowlist = try ReplySenders.allowlist(environment: environment)
        } catch let invalid as ConfigFileError {
            throw invalid  // the config file's own error, as every command reports it
        } catch {
            throw CommandFailure("invalid reply sender allowlist: \(error)", exitCode: ExitStatus.unusable)
        }
        var answered: Reply?
        let configuration = try queue.configuration()
        let client = configuration.makeClient()
        let eventQueue = try configuration.queueURL(using: client).value
        let replyClient = try SQSConfiguration.resolve(
            flags: .init(region: queue.region, queueURL: question.replyTo, endpointURL: queue.endpointURL,
                         profile: queue.profile), environment: environment).makeClient()
        do {
            _ = try client.sendMessage(queueURL: eventQueue, body: question.payload)
            var waiter = ReplyWaiter(client: replyClient, queueURL: question.replyTo,
                                     acceptance: ReplyAcceptance(question: question.asked, allowedSenders: allowlist))
            waiter.onRefused = { reply, refusal in
                standardError("refused reply \(DisplayText.escaped(reply.id)) from \(DisplayText.escaped(reply.from)): "
                    + DisplayText.escaped(refusal.reason))
            }
            answered = try waiter.wait(seconds: TimeInterval(timeout))
            let followUp = question.followUp(answered)
            _ = try client.sendMessage(queueURL: eventQueue, body: followUp)
        } catch {
            throw CommandFailure(error.explanation(queueURL: eventQueue))
        }
        guard let answered else {
            throw CommandFailure("no answer in \(DurationText.text(seconds: Int64(timeout)))", exitCode: ExitStatus.noAnswer)
        }
        switch answered.answer {
        case .action(let id): print(DisplayText.escaped(id))
        case .text(let text): print(DisplayText.escaped(text))
        }
    }
}

/// The event `ask` publishes, and its follow-up.
struct Question {
    var eventID: String
    var agentID: String
    var taskID: String
    var title: String
    var category: String?
    var replyTo: String
    var labels: [String: String]
    var payload: String
    var timeout: Int

    static func make(_ command: AskCommand, environment: [String: String]) -> Result<Question, CommandFailure> {
        func fail(_ message: String) -> Result<Question, CommandFailure> { .failure(CommandFailure(message, exitCode: 2)) }
        guard let title = command.title else { return fail("missing required field \"title\"") }
        guard let agent = AgentIdentity.resolve(flag: command.agentID, environment: environment) else {
            return fail("missing required field \"agent_id\"")
        }
        guard let replyTo = command.replyQueueURL ?? environment["TIMELINE_REPLY_QUEUE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            return fail("no reply queue: pass --reply-queue-url or set TIMELINE_REPLY_QUEUE_URL "
                + "(one per agent or per host: timeline setup --reply-queue AGENT-replies, or aws sqs create-queue --queue-name AGENT-replies)")
        }
        var actionJSON: [String] = []
        var labels: [String: String] = [:]
        for spec in command.actions {
            guard let colon = spec.firstIndex(of: ":") else {
                return fail("--action \(EventEncoder.quoted(spec)) must be id:Label, e.g. deploy:Deploy")
            }
            let id = String(spec[..<colon]), label = String(spec[spec.index(after: colon)...])
            labels[id] = label
            actionJSON.append("{\"id\":\(EventEncoder.quoted(id)),\"label\":\(EventEncoder.quoted(label))}")
        }
        let eventID = UUID().uuidString.lowercased()
        var payload = EventEncoder.json(
            id: eventID, agentID: agent, taskID: command.taskID ?? eventID, title: title, status: Status.needsInput.rawValue,
            timestamp: TimeFormat.iso8601(micros: TimeFormat.nowMicros()), body: command.body, category: command.category)
        payload.removeLast()  // "}"
        if !actionJSON.isEmpty { payload += ",\"actions\":[" + actionJSON.joined(separator: ",") + "]" }
        payload += ",\"reply_to\":\(EventEncoder.quoted(replyTo))}"
        if case .failure(let rejection) = EventParser.parse(payload) { return fail(rejection.reason) }
        return .success(Question(eventID: eventID, agentID: agent, taskID: command.taskID ?? eventID, title: title,
                                 category: command.category, replyTo: replyTo, labels: labels, payload: payload,
                                 timeout: command.timeout))
    }

    /// What an accepted reply must match.
    var asked: AskedQuestion {
        AskedQuestion(eventID: eventID, taskID: taskID, agentID: agentID, offeredActions: Set(labels.keys))
    }

    /// `in_progress` "answered: Deploy by alice@laptop", or `warning` "no answer in 10m".
    func followUp(_ reply: Reply?) -> String {
        let title: String
        let status: Status
        if let reply {
            let what: String
            switch reply.answer {
            case .action(let id): what = labels[id] ?? id
            case .text(let text): what = "\"\(text.count > 60 ? String(text.prefix(60)) + "…" : text)\""
            }
            title = "answered: \(what) by \(reply.from)"
            status = .inProgress
        } else {
            title = "no answer in \(DurationText.text(seconds: Int64(timeout)))"
            status = .warning
        }
        return EventEncoder.json(id: UUID().uuidString.lowercased(), agentID: agentID, taskID: taskID, title: title,
                                 status: status.rawValue, timestamp: TimeFormat.iso8601(micros: TimeFormat.nowMicros()),
                                 body: self.title, category: category)
    }
}
