/// How many receive workers poll one queue. While the queue is quiet, the configured number, each in a
/// long poll; each receive that comes back full (a backlog is building) adds one more, up to `maximum`;
/// a receive that is not full ends one of the added workers. Every worker long-polls, so a quiet queue
/// costs the usual number of waiting requests, never a loop. A failed receive decides nothing: the
/// worker's retry (the same attempt, on a FIFO queue) does.
struct ReceiveWorkerScaling: Sendable, Equatable {
    /// What the worker whose receive just answered does next.
    enum Decision: Sendable, Equatable {
        /// Carry on.
        case keep
        /// Carry on, and start one more worker.
        case add
        /// Store what it received, then end.
        case retire
    }

    /// Workers while the queue is quiet.
    let usual: Int
    /// Most workers at once, however busy the queue.
    let maximum: Int
    /// Workers running now.
    private(set) var running: Int

    init(usual: Int, maximum: Int) {
        self.usual = usual
        self.maximum = max(usual, maximum)
        running = usual
    }

    /// After a receive that returned `count` messages, `full` being the most one receive returns.
    mutating func afterReceive(count: Int, full: Int) -> Decision {
        if count >= full {
            guard running < maximum else { return .keep }
            running += 1
            return .add
        }
        guard running > usual else { return .keep }
        running -= 1
        return .retire
    }
}
