import Dispatch
import Foundation
import Synchronization
import TimelineCore
import TimelineUI

/// The runtime around TimelineUI's pure core: owns the `AppState`, applies inputs with `reduce`, and runs
/// the effects `reduce` returns off the input path against `TimelineReading`s made by `makeReader`; each
/// result comes back as an `Input` (queued, applied by `drain`).
///
/// Two lanes, each a serial queue with its own reader (so SQLite connections stay on one thread): the
/// fast lane answers what the next frame needs (windows, history, n/N, change checks); the slow lane
/// counts (totals, per-status, matches), so a count over a large history never delays a frame. A newer
/// effect of the same kind supersedes one still waiting, and stops one still running (`CancellableReading`)
/// unless it asks for the very same thing (a reload after the next store change: `Tickets.stillWanted`).
/// Commits by other connections are noticed through `changeToken` (`pollBackground`) and fed back as
/// `.storeChanged`.
///
/// The terminal loop feeds inputs with `send`, calls `pollBackground` and `drainResults` each iteration
/// and redraws (at once for what answers the user, else at its frame pace); commits in this process reach
/// it through `storeWritten` / `takeStoreWrites`. Tests and benches wait with `settle` / `settleFrame`.
public final class TimelineController: Sendable {
    /// What the input thread works on (the lock is uncontended: it lets the compiler check the sharing).
    private struct Loop {
        var state: AppState
        var lastChangeCheck: Int64 = 0
        var changeCheckInterval = TimelineController.changeCheckMicros
    }
    private let loop: Mutex<Loop>
    /// The current state (what the next frame draws).
    public var state: AppState { loop.withLock { $0.state } }
    private let fast: Lane
    private let slow: Lane
    private let inbox = Inbox()
    private let tickets = Tickets()
    /// Touched only on the slow lane.
    private let countThrottle: CountThrottle
    /// The store's change token last seen (on the fast lane).
    private let lastToken = Mutex<Int64?>(nil)
    private let checkPending = Atomic(false)
    private let immediateCheckQueued = Atomic(false)
    /// Set by `storeWritten` until the loop takes it (`takeStoreWrites`).
    private let writtenUntaken = Atomic(false)
    /// Set by `reloadAfterOwnCommit`: the next read on the fast lane first takes the change token as seen
    /// (that reload shows the commit, so the check its WAL write causes finds nothing new).
    private let tokenBehind = Atomic(false)
    private let hasWakeHandler = Atomic(false)
    private let pollerStatus: (@Sendable () -> PollerStatusView)?
    /// Sends a confirmed reply (records it, delivers it, keeps the outcome); runs on its own serial lane so
    /// a slow webhook never delays a frame, and every confirmed reply is sent exactly once, in order.
    private let sendReply: (@Sendable (ReplyRecord) -> ReplyRecord)?
    private let sendLane = DispatchQueue(label: "timeline.ui.send", qos: .userInitiated)
    /// Marks, views and exports, run in order on their own queue (never superseded).
    private let actions: TimelineActions?
    private let actionQueue = DispatchQueue(label: "timeline.ui.actions")
    private let pollerRestart: (@Sendable () -> Void)?
    /// How often other connections' writes are looked for by default.
    public static let changeCheckMicros: Int64 = 200_000
    /// How often `pollBackground` looks for other connections' writes. An event-driven loop that is told
    /// of commits (`checkForChangesNow`) raises it: the check is then only a slow fallback.
    public var changeCheckInterval: Int64 {
        get { loop.withLock { $0.changeCheckInterval } }
        set { loop.withLock { $0.changeCheckInterval = newValue } }
    }

    /// `countDebounce`: how long counts for a new query wait, so a burst of keystrokes is counted once (a
    /// count already running when the next key arrives stops anyway: this only spares starting it).
    public init(state: AppState, makeReader: @escaping @Sendable () throws -> TimelineReading,
                pollerStatus: (@Sendable () -> PollerStatusView)? = nil,
                pollerRestart: (@Sendable () -> Void)? = nil, countDebounce: Double = 0.03,
                actions: TimelineActions? = nil, sendReply: (@Sendable (ReplyRecord) -> ReplyRecord)? = nil) {
        var state = state
        if let pollerStatus { state.poller = pollerStatus() }
        loop = Mutex(Loop(state: state))
        self.actions = actions
        self.sendReply = sendReply
        countThrottle = CountThrottle(debounceSeconds: countDebounce)
        fast = Lane(label: "timeline.ui.fast", makeReader: makeReader)
        slow = Lane(label: "timeline.ui.slow", makeReader: makeReader)
        self.pollerStatus = pollerStatus
        self.pollerRestart = pollerRestart
    }

    /// `handler` runs (on any thread) each time a background result is queued for `drain`, so an
    /// event-driven loop can sleep until then. Set it before `start`.
    public func setWakeHandler(_ handler: (@Sendable () -> Void)?) {
        inbox.setWake(handler)
        hasWakeHandler.store(handler != nil, ordering: .releasing)
    }

    /// A commit in this process (the in-process poller's hook; any thread). With a loop listening (a wake
    /// handler set), the loop is woken once and checks the store at its own pace (`takeStoreWrites`);
    /// commits until it takes them fold into that one wake. Without one, the store is checked now.
    public func storeWritten() {
        guard hasWakeHandler.load(ordering: .acquiring) else { return checkForChangesNow() }
        if writtenUntaken.setIfClear() { inbox.wake() }
    }

    /// True when `storeWritten` was called since the last call: the loop schedules a store check.
    public func takeStoreWrites() -> Bool {
        writtenUntaken.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// A commit of this process, taken by the loop (`takeStoreWrites`): reloads at once, without comparing
    /// the change token on the fast lane first (one round trip less between a commit and its frame). The
    /// token is brought up to date by the reload's own read. Called by the loop, which drains its results
    /// next: the store change does not wake it again.
    public func reloadAfterOwnCommit() {
        tokenBehind.store(true, ordering: .releasing)
        inbox.put(.storeChanged, wakes: false)
    }

    /// Looks for other connections' commits now, without the `changeCheckInterval` throttle: for a commit
    /// hook or a file watcher. Thread-safe; calls made while one check is still queued coalesce into it.
    public func checkForChangesNow() {
        guard immediateCheckQueued.setIfClear() else { return }
        fast.queue.async { [self] in
            immediateCheckQueued.clear()  // a commit after this point queues another check
            checkToken()
        }
    }

    /// Starts the first loads.
    public func start() {
        run(loop.withLock { startEffects(&$0.state) }, countsAfterWindow: true, answersUser: true)
    }

    /// Applies an input from the terminal; returns false once the user asked to quit. The results of the
    /// work it starts answer the user (`drainResults`), except a tick's.
    @discardableResult
    public func send(_ input: Input) -> Bool {
        var answersUser = true
        if case .tick(let now) = input {
            pollBackground(nowMicros: now)
            answersUser = false
        }
        let (effects, quit) = loop.withLock { loop in
            let effects = reduce(&loop.state, input)
            return (effects, loop.state.quitRequested)
        }
        run(effects, answersUser: answersUser)
        return !quit
    }

    /// A frame showing the current state was drawn (an open confirmation is now on screen).
    public func drawn() {
        loop.withLock { confirmationDrawn(&$0.state) }
    }

    /// Applies results that arrived from the background queue. True when the state changed.
    public func drain() -> Bool { drainResults() != .none }

    /// Applies results that arrived from the background queue, and tells whether one answers the user
    /// (the work it starts in turn answers the user too) or all are incidental.
    public func drainResults() -> DrainedResults {
        let items = inbox.takeAll()
        guard !items.isEmpty else { return .none }
        var coalesced = false
        var answers = false
        var incidental = true
        for item in items {
            // Several store changes in one drain are one reload.
            let storeChanged = item.input == .storeChanged
            if storeChanged { if coalesced { continue }; coalesced = true }
            answers = answers || item.answersUser
            let effects = loop.withLock { loop in
                incidental = incidental && item.input.isIncidental(to: loop.state)
                return reduce(&loop.state, item.input)
            }
            run(effects, countsAfterWindow: storeChanged, answersUser: item.answersUser, together: storeChanged)
        }
        return answers ? .answers : incidental ? .incidental : .background
    }

    /// Waits until both lanes have answered everything sent so far and every answer is applied. For tests
    /// and benches. Throws `SettleTimeout` when work is still pending after `timeout` seconds.
    public func settle(timeout: TimeInterval = 5) throws {
        let deadline = DispatchTime.now() + timeout
        repeat {
            guard fast.waitUntilIdle(deadline), slow.waitUntilIdle(deadline), sendsIdle(deadline) else { break }
            actionQueue.sync {}  // actions are short writes: wait for them outright
            if !drain() && inbox.isEmpty && tickets.idle { return }
        } while DispatchTime.now() < deadline
        throw SettleTimeout(seconds: timeout)
    }

    /// Waits, at most `timeout` seconds, for the actions queued so far (marks, pins, views, searches) to be
    /// written: they are the user's, and quitting right after one must not lose it. False when time ran out.
    @discardableResult
    public func finishActions(timeout: TimeInterval = 2) -> Bool {
        let done = DispatchSemaphore(value: 0)
        actionQueue.async { done.signal() }
        return done.wait(timeout: .now() + timeout) == .success
    }

    /// Waits until the reply sends queued so far have run; false when `deadline` passed first.
    private func sendsIdle(_ deadline: DispatchTime) -> Bool {
        let done = DispatchSemaphore(value: 0)
        sendLane.async { done.signal() }
        return done.wait(timeout: deadline) == .success
    }

    /// Waits until the fast lane has answered (what the next frame needs); counts may still be running.
    public func settleFrame() {
        repeat { fast.queue.sync {} } while drain()
    }

    /// Looks for other connections' writes (at most every `changeCheckMicros`) and poller status
    /// changes. The terminal loop calls it every iteration; ticks call it too.
    public func pollBackground(nowMicros now: Int64) {
        if let pollerStatus {
            let p = pollerStatus()
            if p != state.poller { inbox.put(.pollerStatus(p)) }
        }
        let due = loop.withLock { loop in
            guard now - loop.lastChangeCheck >= loop.changeCheckInterval, checkPending.setIfClear() else { return false }
            loop.lastChangeCheck = now
            return true
        }
        guard due else { return }
        fast.queue.async { [self] in
            defer { checkPending.clear() }
            checkToken()
        }
    }

    /// Call only on the fast lane: compares the store's change token with the last one seen.
    private func checkToken() {
        guard let token = try? fast.withReader({ try $0.changeToken() }) else { return }
        let last = lastToken.withLock { last in
            defer { last = token }
            return last
        }
        if let last, last != token { inbox.put(.storeChanged) }
    }

    /// `countsAfterWindow`: counts start only once the fast lane has answered the effects before them (the
    /// first frame), so a count over a large history does not compete with it for the CPU; always so beside
    /// a new query's first window, which gives its first counts (`WindowRequest.countsFirst`). A store
    /// change's reload does so too: counts that came first drew a frame of their own, and the changed rows
    /// then waited for the next frame's slot (a whole frame between an event's commit and its row).
    /// `answersUser`: the effects' results answer the user's input (`drainResults`). `together`: the results
    /// of the reads on the fast lane are queued together, once the last is read (`ResultGroup`).
    private func run(_ effects: [Effect], countsAfterWindow: Bool = false, answersUser: Bool = false,
                     together: Bool = false) {
        let countsAfterWindow = countsAfterWindow || effects.contains {
            if case .loadWindow(let request) = $0 { request.countsFirst } else { false }
        }
        let fastReads = effects.filter { Self.isRead($0) && EffectKind($0) != .counts }.count
        let fastGroup = together && fastReads > 1 ? ResultGroup(reads: fastReads) : nil
        for effect in effects {
            guard Self.isRead(effect) else {
                runOther(effect, answersUser: answersUser)
                continue
            }
            let kind = EffectKind(effect)
            let ticket = tickets.issue(kind, effect, answersUser: answersUser)
            let lane = kind == .counts ? slow : fast
            let group = lane === fast ? fastGroup : nil
            let deliver: @Sendable (Input, Bool) -> Void = { [inbox] input, answersUser in
                if let group { group.add(Inbox.Item(input: input, answersUser: answersUser)) } else {
                    inbox.put(input, answersUser: answersUser)
                }
            }
            let work: @Sendable () -> Void = { [self] in
                defer {
                    group?.finished(into: inbox)
                    tickets.finish()
                }
                // A newer request of the same kind supersedes this one: skip it (before and after waiting).
                guard kind == .write || tickets.isLatest(ticket, kind) else { return }
                if case .loadCounts(let request) = effect {
                    countThrottle.wait(generation: request.generation)
                    guard tickets.isLatest(ticket, kind) else { return }
                }
                do {
                    let started = DispatchTime.now().uptimeNanoseconds
                    // A read that a newer, different one of its kind made stale stops part-way (a search
                    // or count typed over by the next keystroke); writes always finish.
                    let tickets = self.tickets
                    let isStale: @Sendable () -> Bool = { !tickets.stillWanted(ticket, kind, effect) }
                    let stale = kind == .write ? nil : isStale
                    let result = try lane.withReader { reader -> Input? in
                        if lane === fast, tokenBehind.exchange(false, ordering: .acquiringAndReleasing)
                            || lastToken.withLock({ $0 == nil }) {
                            let token = try? reader.changeToken()
                            lastToken.withLock { $0 = token }
                        }
                        return EffectExecutor.run(effect, on: reader, cancelledWhen: stale)
                    }
                    if let result { deliver(result, tickets.takeOwed(kind) || answersUser) }
                    if case .loadCounts(let request) = effect {
                        countThrottle.finished(generation: request.generation, startedNanos: started, capped: request.cap != nil)
                    }
                } catch {
                    deliver(.loadFailed("cannot open the store: \(error)"), tickets.takeOwed(kind) || answersUser)
                }
            }
            if countsAfterWindow && lane === slow {
                fast.queue.async { [slow] in slow.queue.async(execute: work) }
            } else {
                lane.queue.async(execute: work)
            }
        }
    }

    /// Runs an effect that is not a read (`isRead`): a reply is sent on its own lane, an action on the action
    /// queue, a poller restart at once; quitting is the loop's.
    private func runOther(_ effect: Effect, answersUser: Bool) {
        if case .sendReply(let record) = effect {
            tickets.begin()
            sendLane.async { [self] in
                defer { tickets.finish() }
                var outcome = record
                if let sendReply { outcome = sendReply(record) } else {
                    outcome.delivery = .failed(reason: "this view cannot send replies")
                }
                inbox.put(.replyOutcome(outcome), answersUser: answersUser)
            }
        } else if effect == .restartPoller {
            pollerRestart?()
        } else if ActionExecutor.isAction(effect), let actions {
            actionQueue.async { [inbox] in
                if let input = ActionExecutor.run(effect, with: actions) { inbox.put(input, answersUser: answersUser) }
            }
        }
    }
}

extension TimelineController {
    /// Whether `run` reads `effect` on a lane (every effect but quitting, replies, a poller restart and actions).
    static func isRead(_ effect: Effect) -> Bool {
        switch effect {
        case .quit, .sendReply, .restartPoller: false
        default: !ActionExecutor.isAction(effect)
        }
    }
}

/// `settle` ran out of time with effects still in flight (a load hangs or keeps re-issuing itself).
public struct SettleTimeout: Error, CustomStringConvertible {
    public let seconds: TimeInterval
    public var description: String { "the controller did not settle within \(seconds) s: effects still in flight" }
}

extension TimelineController: TimelineDriver {}
