import AgentHooks
import ArgumentParser
import Foundation
import SQSClient
import Synchronization
import TimelineCore

/// `timeline hook AGENT`: what an agent's own hook runs. Reads the agent's payload (stdin; Codex's
/// `notify` passes it as the last argument), publishes the event it means, and never holds the agent up:
/// it exits 0 whatever happens, within `--budget` seconds, leaving what it could not send in the spool.
struct HookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hook",
        _superCommandName: "timeline",  // its usage says `timeline hook` when main parses it alone
        abstract: "Report an agent's hook event to the timeline (run by the agent's hooks).",
        discussion: """
            Agents: \(HookAgent.allCases.map(\.rawValue).joined(separator: ", ")). Always exits 0; what cannot \
            be sent within the budget waits in the spool (timeline hooks flush).
            """
    )

    @Argument(help: "The agent whose hook runs this.") var agent: String
    @Argument(parsing: .captureForPassthrough, help: "The payload, for agents that pass it as an argument (Codex notify).")
    var payloadArguments: [String] = []
    @Flag(name: .customLong("include-prompts"), help: "Publish the prompts the user typed (off: they are left out).")
    var includePrompts = false
    @Option(help: ArgumentHelp("Seconds the whole run may take.", valueName: "seconds")) var budget: Double = 2.0
    @Option(help: ArgumentHelp(
        "How long a prompt the timeline may answer waits there (default: $TIMELINE_HOOK_WAIT, the config file's hook_wait, 2m).",
        valueName: "duration"))
    var wait: DurationArgument?

    func run() throws {
        Self.end(printing: handle())
    }

    /// Ends the run at once, stdout flushed, without exit handlers: a send that ran out of budget or a long
    /// poll may still be inside curl or OpenSSL on another thread, and OpenSSL's exit-time cleanup frees what
    /// that thread is using (the process could hang there instead of leaving). What was not sent stays spooled.
    static func end(printing answer: String? = nil) -> Never {
        if let answer { print(answer) }
        fflush(nil)  // every stdio stream
        _exit(0)
    }

    /// Does the run's work; returns what to print for the agent (nil: nothing).
    private func handle() -> String? {
        let started = Date()
        let environment = SenderEnvironment.current()  // as the background sender it may start gets it
        let state = HookSpool.stateDirectory(environment: environment)
        let spool = HookSpool(stateDirectory: state)
        let settings = HookDelivery.identity(environment: environment)  // the events are marked with it
        // Gemini CLI parses a hook's stdout as JSON and Cursor expects an answer: one that changes nothing
        // (for a prompt: the adapter's own, which lets the agent ask its user).
        var answer: String? = agent == HookAgent.cursor.rawValue ? Self.cursorNeutralAnswer : agent == HookAgent.gemini.rawValue ? "{}" : nil
        // What the spool cannot take (a full disk, a read-only home) is sent directly, within the budget.
        var unspooled: [String] = []
        func keep(_ payload: String?) {
            guard let payload else { return }
            do {
                try spool.add(payload, settings: settings)
            } catch {
                HookLog.record("\(error)", state: state)
                unspooled.append(payload)
            }
        }
        do {
            guard let agent = HookAgent(rawValue: agent) else {
                throw CommandFailure("unknown agent \(DisplayText.sanitize(self.agent))")
            }
            let builder = HookEventBuilder(agent: agent)
            let waiting = WaitingSessions(stateDirectory: state)
            let input = try payload(for: agent)
            if let input, let prompt = PromptAdapters.adapter(for: agent, input: input) {
                if let unanswered = prompt.unanswered { answer = unanswered }
                switch askOnTheTimeline(prompt, agent: agent, builder: builder, spool: spool, settings: settings,
                                        environment: environment) {
                case .notAsked:
                    keep(builder.payload(for: waiting.adjust(prompt.asked, agent: agent)))
                case .decided(let decision):
                    return decision
                case .unanswered:
                    // Withdrawn (published): the agent asks in its terminal; the next tool event ends the wait.
                    _ = waiting.adjust(prompt.asked, agent: agent)
                    return answer
                }
            } else {
                for report in reports(for: agent, input: input) {
                    keep(builder.payload(for: waiting.adjust(report, agent: agent)))
                }
            }
        } catch {
            HookLog.record("\(error)", state: state)
        }
        if !unspooled.isEmpty {
            let outcome = HookDelivery.sendDirect(unspooled, spool: spool, environment: environment, settings: settings,
                                                  budget: budget - Date().timeIntervalSince(started))
            if let failure = outcome.failure { HookLog.record(failure, state: state) }
        }
        if HookDelivery.handOver(spool: spool, environment: environment, settings: settings) { return answer }
        let remaining = budget - Date().timeIntervalSince(started)
        guard remaining > 0.05 else { return answer }
        let outcome = HookDelivery.deliver(spool: spool, environment: environment, settings: settings, budget: remaining)
        if let failure = outcome.failure { HookLog.record(failure, state: state) }
        if outcome.failure == nil, !outcome.timedOut, outcome.waiting == 0 { HookLog.clear(state: state) }
        if outcome.timedOut { HookLog.record("time budget ran out; \(outcome.waiting) events wait in the spool for a background sender", state: state) }
        return answer  // `end` leaves even while the sending thread still waits on the network
    }

    /// The agent's payload: stdin, or for Codex's `notify` the last argument; none for aider.
    private func payload(for agent: HookAgent) throws -> HookInput? {
        switch agent {
        case .aider: return nil
        case .codex:
            if let text = payloadArguments.last, let input = HookInput.parse(Array(text.utf8)) { return input }
            return try readStdin()
        case .claude, .gemini, .cursor, .opencode: return try readStdin()
        }
    }

    /// The reports this run's payload means.
    private func reports(for agent: HookAgent, input: HookInput?) -> [HookReport] {
        let options = HookOptions(includePrompts: sharesPrompts)
        switch agent {
        case .aider:
            // aider's notifications command gets no payload: it runs when aider waits for the user.
            return [AiderHooks.report(cwd: FileManager.default.currentDirectoryPath, parentProcess: getppid())]
        case .codex: return input.map { CodexHooks.reports($0, options: options) } ?? []
        case .claude:
            return input.flatMap { ClaudeHooks.report($0, options: options, lastAssistantText: ClaudeTranscript.lastAssistantText(path:)) }
                .map { [$0] } ?? []
        case .gemini: return input.flatMap { GeminiHooks.report($0, options: options) }.map { [$0] } ?? []
        case .cursor: return input.flatMap { CursorHooks.report($0, options: options) }.map { [$0] } ?? []
        case .opencode: return input.flatMap { OpencodeHooks.report($0, options: options) }.map { [$0] } ?? []
        }
    }

    /// `--include-prompts`, also where Codex's `notify` puts it: among the arguments before its JSON (they
    /// are all captured once the payload argument starts).
    private var sharesPrompts: Bool {
        includePrompts || payloadArguments.dropLast().contains("--include-prompts")
    }

    /// A prompt asked on the timeline: the decision for the agent, no answer in time, or not asked at all
    /// (then the prompt is reported as any other event). Needs a reply queue and the waiter that accepts
    /// answers; SIGTERM (the agent's prompt was answered in its terminal) ends the wait at once.
    private func askOnTheTimeline(
        _ prompt: any PromptAdapter, agent: HookAgent, builder: HookEventBuilder, spool: HookSpool, settings: String,
        environment: [String: String]
    ) -> PermissionOutcome {
        let file = try? UserConfig.file()
        guard let replyQueue = environment["TIMELINE_REPLY_QUEUE_URL"].flatMap({ $0.isEmpty ? nil : $0 })
                ?? file?.string("reply_queue_url") else { return .notAsked }
        let asked = prompt.asked
        let seconds = wait?.seconds
            ?? environment["TIMELINE_HOOK_WAIT"].flatMap(DurationArgument.init(argument:))?.seconds
            ?? file?.string("hook_wait").flatMap(DurationArgument.init(argument:))?.seconds
            ?? PermissionPrompt.defaultWaitSeconds
        let budget = self.budget
        @Sendable func sendAtOnce(_ payload: String, keep: Bool, budget: TimeInterval) -> Bool {
            HookDelivery.sendAtOnce(payload, keep: keep, spool: spool, environment: environment, settings: settings,
                                    budget: budget)
        }
        // Answered in the agent's own dialog first: the agent stops the hook (SIGTERM), or moves on without
        // stopping it (the session's next event ends its wait mark). Either way the question is withdrawn.
        let answeredInTerminal: @Sendable () -> Never = {
            if let payload = prompt.followUp(.answeredInTerminal, builder: builder) {
                _ = sendAtOnce(payload, keep: true, budget: 0.5)
            }
            Self.end()
        }
        let terminal = SignalWatcher([SIGTERM]) { _ in answeredInTerminal() }
        defer { withExtendedLifetime(terminal) {} }
        let sessions = WaitingSessions(stateDirectory: HookSpool.stateDirectory(environment: environment))
        guard let waiter = HookAnswerWaiting.waiter(
            environment: environment, replyQueueURL: replyQueue,
            answeredElsewhere: { !sessions.isWaiting(agent: agent, session: asked.session) },
            onAnsweredElsewhere: answeredInTerminal) else { return .notAsked }
        guard prompt.question(builder: builder, replyQueueURL: replyQueue) != nil else { return .notAsked }
        _ = sessions.adjust(asked, agent: agent)  // marks the session waiting until its next event
        let flow = PermissionFlow(waiter: waiter, publishQuestion: { sendAtOnce($0, keep: false, budget: budget) },
                                  publish: { _ = sendAtOnce($0, keep: true, budget: budget) })
        return flow.ask(prompt, builder: builder, replyQueueURL: replyQueue, wait: TimeInterval(seconds)).map { .decided($0) } ?? .unanswered
    }

    /// How a permission prompt went on the timeline.
    enum PermissionOutcome {
        /// Not asked there (no reply queue, no sender allowlist, or the question could not be made).
        case notAsked
        /// Answered: the decision JSON for the agent.
        case decided(String)
        /// No answer in time: the question was withdrawn.
        case unanswered
    }

    /// Cursor's "go ahead" (`beforeSubmitPrompt` reads `continue`; the other hooks installed ignore it).
    static let cursorNeutralAnswer = "{\"continue\":true}"

    /// The JSON object on stdin (at most 8 MiB), nil when stdin is a terminal or holds no object.
    /// Stdin is read within half the budget: an agent that never closes it does not hold the hook.
    private func readStdin() throws -> HookInput? {
        if isatty(STDIN_FILENO) != 0 { return nil }
        let box = StdinBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            ThreadName.nameThisThread("tl-hook-stdin")
            let data = FileHandle.standardInput.readData(ofLength: 8 * 1024 * 1024)
            box.data.withLock { $0 = data }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + budget / 2) == .success else { throw CommandFailure("stdin was not closed in time") }
        guard let input = HookInput.parse(Array(box.data.withLock { $0 })) else { throw CommandFailure("stdin holds no JSON object") }
        return input
    }
}

/// What the stdin reader thread read (handed over through the semaphore).
private final class StdinBox: Sendable {
    let data = Mutex(Data())
}

/// The last thing that went wrong in a hook run, for `timeline hooks status` (hooks print nothing: the
/// agent would show it, or read it as an answer).
enum HookLog {
    static func record(_ message: String, state: URL) {
        let file = state.appendingPathComponent("hook-last-error.txt")
        let line = "\(TimeFormat.iso8601(micros: TimeFormat.nowMicros())) \(message)\n"
        try? FileManager.default.createDirectory(at: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    static func clear(state: URL) {
        unlink(state.appendingPathComponent("hook-last-error.txt").path)
    }

    static func last(state: URL) -> String? {
        (try? String(contentsOf: state.appendingPathComponent("hook-last-error.txt"), encoding: .utf8))
            .map { DisplayText.sanitize($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
