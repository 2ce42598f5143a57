import Foundation

/// Asks an agent's prompt on the timeline and waits for the answer: publishes the question, waits until
/// `wait` runs out, publishes how it ended, and returns what the agent reads on stdout (nil when there is
/// no answer: the agent then asks in its terminal, or reads the adapter's `unanswered`).
public struct PermissionFlow: Sendable {
    public var waiter: any PermissionAnswerWaiter
    /// Spools and sends one payload (within the hook's budget).
    public var publish: @Sendable (String) -> Void
    public var now: @Sendable () -> Date

    public init(waiter: any PermissionAnswerWaiter, publish: @escaping @Sendable (String) -> Void,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.waiter = waiter
        self.publish = publish
        self.now = now
    }

    /// The decision for `adapter`'s prompt, nil when none was accepted in time.
    public func ask(_ adapter: any PromptAdapter, builder: HookEventBuilder, replyQueueURL: String, wait: TimeInterval) -> String? {
        guard let question = adapter.question(builder: builder, replyQueueURL: replyQueueURL) else { return nil }
        publish(question.payload)
        let answer = waiter.answer(to: question, until: now().addingTimeInterval(wait))
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
