import Foundation

/// Asks an agent's prompt on the timeline and waits for the answer: publishes the question, waits until
/// `wait` runs out, publishes how it ended, and returns what the agent reads on stdout (nil when there is
/// no answer: the agent then asks in its terminal, or reads the adapter's `unanswered`).
///
/// A question that did not reach the queue (the network is down) is not waited for: nobody would see
/// it, and the agent asks its user at once instead of after `wait`.
public struct PermissionFlow: Sendable {
    public var waiter: any PermissionAnswerWaiter
    /// Sends the question (within the hook's budget); true when the queue has it.
    public var publishQuestion: @Sendable (String) -> Bool
    /// Sends how the prompt ended (kept for later when it cannot go now).
    public var publish: @Sendable (String) -> Void
    public var now: @Sendable () -> Date

    public init(waiter: any PermissionAnswerWaiter, publishQuestion: @escaping @Sendable (String) -> Bool,
                publish: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> Date = { Date() }) {
        self.waiter = waiter
        self.publishQuestion = publishQuestion
        self.publish = publish
        self.now = now
    }

    /// The decision for `adapter`'s prompt, nil when none was accepted in time.
    public func ask(_ adapter: any PromptAdapter, builder: HookEventBuilder, replyQueueURL: String, wait: TimeInterval) -> String? {
        guard let question = adapter.question(builder: builder, replyQueueURL: replyQueueURL) else { return nil }
        let asked = publishQuestion(question.payload)
        let answer = asked ? waiter.answer(to: question, until: now().addingTimeInterval(wait)) : nil
        let decision = answer.flatMap { adapter.decision($0, question: question) }
        let outcome: PermissionPrompt.Outcome = decision == nil ? .withdrawn : .answered(answer!)
        if let followUp = adapter.followUp(outcome, builder: builder) { publish(followUp) }
        return decision
    }

    /// Claude Code's `PermissionRequest` in `input`.
    public func run(_ input: HookInput, builder: HookEventBuilder, replyQueueURL: String, wait: TimeInterval) -> String? {
        guard let adapter = PermissionRequestPrompt(input) else { return nil }
        return ask(adapter, builder: builder, replyQueueURL: replyQueueURL, wait: wait)
    }
}
