import ArgumentParser
import Foundation
import TimelineCore
import ReplyDelivery
import SQSClient

/// `timeline setup`: SNS fan-out for several viewers of the same agents (one queue per viewer).
struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Create (idempotently) an SNS topic, this viewer's queue with a dead-letter queue and the raw-delivery subscription; or an agent's reply queue.",
        discussion: """
            Agents publish to the topic; every viewer runs `timeline setup` with the same --topic and its own --queue. \
            Queues keep events 14 days; a message that fails 5 times moves to the dead-letter queue (QUEUE-dlq). \
            Running it again changes nothing. Prints what to export for agents and for this viewer, and the IAM \
            permissions each side needs. A topic and queues whose names end in .fifo are FIFO.
            With --reply-queue NAME (alone, or with --topic and --queue): an agent's reply queue whose policy lets \
            only the --reply-sender principals (IAM user or role ARNs; default: the caller's own identity) send \
            to it, and the TIMELINE_REPLY_QUEUE_URL and TIMELINE_REPLY_SENDERS lines for the agent.
            """
    )

    @Option(help: ArgumentHelp("SNS topic name (the agents publish to it).", valueName: "name")) var topic: String?
    @Option(name: .customLong("reply-queue"), help: ArgumentHelp(
        "An agent's reply queue to create (one per agent or per host).", valueName: "name"))
    var replyQueue: String?
    @Option(name: .customLong("reply-sender"), help: ArgumentHelp(
        "IAM user or role ARN allowed to send replies (repeatable; default: the caller).", valueName: "arn"))
    var replySenders: [String] = []
    @Flag(name: .customLong("dry-run"), help: "Only read: say what would be created or changed.") var dryRun = false
    @OptionGroup var queue: QueueOptions

    func validate() throws {
        if replyQueue?.isEmpty == true { throw ValidationError("--reply-queue needs a queue name.") }
        if !replySenders.isEmpty, replyQueue == nil { throw ValidationError("--reply-sender needs --reply-queue NAME.") }
        for sender in replySenders {
            do { _ = try ReplyQueueAccessPolicy.principal(sender) } catch { throw ValidationError("--reply-sender \(error)") }
        }
        if replyQueue != nil, topic == nil, queue.queueName == nil { return }  // only the reply queue
        guard let topic, !topic.isEmpty else { throw ValidationError("--topic NAME is required (or --reply-queue NAME alone).") }
        guard queue.queueName?.isEmpty == false else { throw ValidationError("--queue NAME is required (this viewer's queue).") }
        guard queue.queueURLs.isEmpty else { throw ValidationError("give the queue by name (--queue NAME), not --queue-url.") }
        let names = [topic, queue.queueName!]
        guard names.allSatisfy(AWSNames.isFIFO) || !names.contains(where: AWSNames.isFIFO) else {
            throw ValidationError("a FIFO topic (.fifo) needs a FIFO queue (.fifo), and a standard topic a standard queue.")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var options = queue
        if options.queueName == nil { options.queueName = replyQueue }  // only a reply queue: it names the queue
        let configuration = try options.configuration(environment: environment)
        let region = configuration.region.value
        let snsEndpoint = try SNSEndpoint.resolve(flag: queue.endpointURL, environment: environment, region: region,
                                                  profile: queue.profile)
        if let replyQueue {
            try setUpReplyQueue(replyQueue, configuration: configuration)
            if topic == nil { return }
        }
        guard let topic else { return }
        let plan = FanOutPlan(
            sns: SNSClient(endpoint: snsEndpoint.value, region: region, credentials: configuration.credentials),
            sqs: configuration.makeClient(), topicName: topic, queueName: queue.queueName!, dryRun: dryRun,
            report: { print($0) })
        let result = try plan.run()
        print(dryRun ? "\nDry run: nothing was changed." : "")
        print(Self.instructions(result, region: region))
    }

    /// Creates or corrects the reply queue and prints what the agent exports.
    private func setUpReplyQueue(_ name: String, configuration: SQSConfiguration) throws {
        var senders = try replySenders.map { arn throws -> String in try ReplyQueueAccessPolicy.principal(arn) }
        var senderIDs: [String] = []
        if senders.isEmpty {
            let sts = try configuration.endpoints.endpoint(for: .sts, region: configuration.region.value).value
            if ServiceEndpoints.isLocal(configuration.endpoint.value), !ServiceEndpoints.isLocal(sts) {
                throw CommandFailure("a local endpoint: pass --reply-sender ARN, or set AWS_ENDPOINT_URL_STS to ask its STS who you are")
            }
            let identity: STSClient.CallerIdentity
            do {
                identity = try STSClient(endpoint: sts, region: configuration.region.value)
                    .callerIdentity(try configuration.credentials.credentials())
            } catch {
                throw CommandFailure("could not find who you are (pass --reply-sender ARN): \(error.message)")
            }
            senders = [try ReplyQueueAccessPolicy.principal(identity.arn)]
            // A role's SenderId is ROLEID:session: the role id alone allows every session of it.
            if let userID = identity.userID { senderIDs = [String(userID.split(separator: ":").first ?? "")] }
        }
        let url = try ReplyQueuePlan(sqs: configuration.makeClient(), queueName: name, senders: senders, dryRun: dryRun,
                                     report: { print($0) }).run()
        print(dryRun ? "\nDry run: nothing was changed.\n" : "")
        print("The agent (timeline ask, agent_reply.ask()):")
        print("  export TIMELINE_REPLY_QUEUE_URL=\(url)")
        if senderIDs.isEmpty {
            print("  export TIMELINE_REPLY_SENDERS=SENDER_ID,...   (`timeline doctor` on each viewer prints its SenderId)")
        } else {
            print("  export TIMELINE_REPLY_SENDERS=\(senderIDs.joined(separator: ","))")
        }
        print("A reply queue must not have a redrive policy with a low maxReceiveCount: others' replies on it are\n"
            + "received and released many times.")
    }

    /// What to export on each side, and the IAM permissions each needs.
    static func instructions(_ r: FanOutPlan.Result, region: String) -> String {
        """
        Agents (publish_event.py, timeline publish):
          export TIMELINE_TOPIC_ARN=\(r.topicARN)
          export AWS_REGION=\(region)
        This viewer (timeline tui, poll, doctor):
          export TIMELINE_QUEUE_URL=\(r.queueURL)

        IAM for agents:
          {"Effect": "Allow", "Action": "sns:Publish", "Resource": "\(r.topicARN)"}
        IAM for this viewer:
          {"Effect": "Allow", "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"], "Resource": "\(r.queueARN)"}
          {"Effect": "Allow", "Action": "sqs:GetQueueAttributes", "Resource": "\(r.deadLetterQueueARN)"}
        """
    }
}
