import ArgumentParser
import Foundation
import ReplyDelivery
import TimelineCore
import TimelineStore

/// `timeline reply TASK_ID (--action ID | --text TEXT)`: answer a waiting agent without the TUI.
/// The reply is stored first and its outcome kept, like a reply from the TUI.
struct ReplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Answer a task's latest event: pick one of its actions, or send a line of text to its reply queue.",
        discussion: """
            Actions with a url are POSTed to that webhook; everything else goes to the event's reply_to queue.
            The reply is kept in the database; a reply that could not be sent is kept as not sent and
            `timeline reply --resend REPLY_ID` sends it again with the same id.
            A reply_to on a host that is neither an AWS SQS host of the viewer's partition nor the configured
            endpoint (--endpoint-url, AWS_ENDPOINT_URL_SQS, AWS_ENDPOINT_URL, the profile's endpoint_url) is refused.
            Exit codes: 0 sent, 2 invalid input or a refused reply_to (nothing sent), 1 not sent (AWS, network or
            HTTP error).
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var queues: ReplyQueueOptions

    @Argument(help: ArgumentHelp("The task to answer.", valueName: "task-id"))
    var taskID: String?

    @Option(help: ArgumentHelp("The id of the action to pick (see `timeline history TASK_ID --json`).", valueName: "id"))
    var action: String?

    @Option(help: ArgumentHelp("A line of text for the agent (at most 4096 bytes).", valueName: "text"))
    var text: String?

    @Option(help: ArgumentHelp("Who answers (default: user@host).", valueName: "name"))
    var from: String?

    @Option(help: ArgumentHelp("Send a stored reply again, with the same reply id.", valueName: "reply-id"))
    var resend: String?

    func validate() throws {
        if resend != nil {
            guard taskID == nil, action == nil, text == nil else {
                throw ValidationError("--resend takes no task id, --action or --text.")
            }
            return
        }
        guard taskID?.isEmpty == false else { throw ValidationError("Name the task to answer.") }
        guard (action == nil) != (text == nil) else { throw ValidationError("Give exactly one of --action and --text.") }
        if let from, Reply.textProblem(from) != nil || from.utf8.count > 256 {
            throw ValidationError("--from must be 1-256 bytes of text.")
        }
    }

    func run() throws {
        let timeline = try store.openForWriting()
        let sender = try queues.sender()
        let outbox = ReplyOutbox(keeper: timeline, sender: sender)
        let result: ReplyRecord
        if let resend {
            guard let again = outbox.resend(replyID: resend) else {
                throw CommandFailure("no stored reply with id \"\(DisplayText.escaped(resend))\"", exitCode: 2)
            }
            result = again
        } else {
            guard let row = try timeline.row(taskID: taskID!) else {
                throw CommandFailure("no task \"\(DisplayText.escaped(taskID!))\" in \(timeline.path)", exitCode: 2)
            }
            let answer: Reply.Answer = action.map(Reply.Answer.action) ?? .text(text!)
            let record = try ReplyTargets.record(answering: row.event, with: answer, from: try ReplyIdentity.identity(flag: from),
                                                 policy: sender.policy, nowMicros: TimeFormat.nowMicros()).get()
            result = outbox.send(record)
        }
        if result.isSent {
            print(ReplyTargets.outcomeLine(result))
        } else {
            throw CommandFailure(ReplyTargets.outcomeLine(result)
                + "\nhint: kept as not sent; `timeline reply --resend \(result.reply.id)` sends it again")
        }
    }
}
