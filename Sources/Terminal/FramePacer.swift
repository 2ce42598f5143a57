/// Paces what the store's writes cost the terminal loop, at most one frame interval (about 30 a second):
///
/// - **Store checks.** The first write noticed (inotify on the WAL, or a commit in this process) is checked
///   at once. A check caused by writes is followed by one more a frame later (a write may land just before
///   SQLite publishes its commit), which also picks up the writes that came meanwhile; until then the loop
///   stops listening to the store, so a burst of writes (hundreds a second during a prune) wakes it once
///   per frame instead of once per write, and is looked at once. Writes are so checked at most once a
///   frame, and an event after a quiet spell, even one right after a follow-up that found nothing, at once.
/// - **Frames.** What answers the user (a key, a paste, a resize, and the loads they started) is drawn at
///   once. What only follows the store or a tick is drawn at most once a frame interval: a frame due
///   sooner waits for its slot.
///
/// Pure (the clock is passed in, in microseconds), so the rule is tested without a terminal.
struct FramePacer {
    /// About 30 frames a second.
    static let frameMicros: Int64 = 33_000

    let frameMicros: Int64
    /// When the next store check is due; nil while none is scheduled (the loop then listens to the store).
    private(set) var nextStoreCheck: Int64?
    private var writtenSinceCheck = false
    private var lastFrame: Int64 = .min / 2

    init(frameMicros: Int64 = FramePacer.frameMicros) { self.frameMicros = frameMicros }

    /// False while a store check is scheduled: writes until then fold into it, so the loop need not wake
    /// for each one (it looks for them when the check is due: `storeCheckDue`).
    var listensToStore: Bool { nextStoreCheck == nil }

    /// True when a scheduled store check is due at `now`.
    func storeCheckDue(at now: Int64) -> Bool { nextStoreCheck.map { now >= $0 } ?? false }

    /// The store was written (seen at `now`): a check at once, unless one is scheduled (the write folds
    /// into it).
    mutating func storeWritten(at now: Int64) {
        writtenSinceCheck = true
        if nextStoreCheck == nil { nextStoreCheck = now }
    }

    /// True when the store should be checked now (and records the check).
    mutating func takeStoreCheck(at now: Int64) -> Bool {
        guard storeCheckDue(at: now) else { return false }
        nextStoreCheck = writtenSinceCheck ? now + frameMicros : nil
        writtenSinceCheck = false
        return true
    }

    /// Whether a frame may be drawn at `now`: at once when it answers the user, else once its slot came.
    func mayDraw(at now: Int64, answersUser: Bool) -> Bool {
        answersUser || now - lastFrame >= frameMicros
    }

    /// A frame was drawn at `now`. One that changed nothing on screen (a reload that found what was shown)
    /// wrote nothing to the terminal, so it does not take the slot of the next frame that does.
    mutating func drew(at now: Int64, changedScreen: Bool = true) {
        if changedScreen { lastFrame = now }
    }

    /// The soonest the loop must wake for the store or a frame waiting for its slot (nil: neither).
    /// `framePending`: something waits to be drawn.
    func deadline(framePending: Bool) -> Int64? {
        let frame = framePending ? lastFrame + frameMicros : nil
        switch (nextStoreCheck, frame) {
        case let (check?, frame?): return min(check, frame)
        case let (check, frame): return check ?? frame
        }
    }
}
