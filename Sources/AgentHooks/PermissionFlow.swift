import Foundation

/// Asks a Claude Code permission prompt on the timeline and waits for the answer: publishes the question,
/// waits until `wait` runs out, publishes how it ended, and returns the decision JSON Claude reads on
/// stdout (nil when there is none: Claude then asks in its terminal).
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

    public func run(_ input: HookInput, builder: HookEventBuilder, replyQueueURL: String, wait: TimeInterval) -> String? {
        guard let question = PermissionPrompt.question(input, builder: builder, replyQueueURL: replyQueueURL) else { return nil }
        publish(question.payload)
        let answer = waiter.answer(to: question, until: now().addingTimeInterval(wait))
        if let followUp = PermissionPrompt.followUp(answer.map { .answered($0) } ?? .withdrawn, to: input, builder: builder) {
            publish(followUp)
        }
        return answer.map { PermissionPrompt.decisionJSON($0, question: question) }
    }
}
