/// Paces what the store's writes cost the terminal loop, at most one frame interval (about 30 a second):
///
/// - **Store checks.** The first write noticed (inotify on the WAL, or a commit in this process) is checked
///   at once. A check caused by writes is followed by one more a frame later (a write may land just before
///   SQLite publishes its commit), which also picks up the writes that came meanwhile; until then the loop
///   stops listening to the store, so a burst of writes (hundreds a second during a prune) wakes it once
///   per frame instead of once per write, and is looked at once. Writes are so checked at most once a
///   frame, and an event after a quiet spell, even one right after a follow-up that found nothing, at
///   once. A check that folds in a commit of this process (`storeWritten(at:here: true)`, told after the
///   commit) is a reload outright: the store surely changed, so comparing its change token first would
///   only cost a round trip through the read lane. Such a commit told after the first check of a burst,
///   when that check only looked, brings the next check forward to at once: the look may have come
///   between the commit's WAL write and its publication and found nothing (an event on its own then
///   waited a whole frame for the follow-up). Follow-ups keep their slots, so a burst still reloads at
///   most once a frame after its first look.
/// - **Frames.** What answers the user (a key, a paste, a resize, and the loads they started) is drawn at
///   once. What only follows the store or a tick is drawn at most once a frame interval: a frame due
///   sooner waits for its slot. A frame that showed only a tick leaves the slot to the store's next.
///
/// Pure (the clock is passed in, in microseconds), so the rule is tested without a terminal.
struct FramePacer {
    /// About 30 frames a second.
    static let frameMicros: Int64 = 33_000

    let frameMicros: Int64
    /// When the next store check is due; nil while none is scheduled (the loop then listens to the store).
    private(set) var nextStoreCheck: Int64?
    private var writtenSinceCheck = false
    /// A commit of this process is among the writes since the last check.
    private var committedHereSinceCheck = false
    /// The scheduled check is a follow-up (a frame after the previous), not the first after a quiet spell.
    private var scheduledCheckFollowsUp = false
    /// The last check was the first of a burst and only looked (`.look`): it may have come before a commit
    /// of this process was published.
    private var firstCheckLooked = false
    private var lastFrame: Int64 = .min / 2

    init(frameMicros: Int64 = FramePacer.frameMicros) { self.frameMicros = frameMicros }

    /// False while a store check is scheduled: writes until then fold into it, so the loop need not wake
    /// for each one (it looks for them when the check is due: `storeCheckDue`).
    var listensToStore: Bool { nextStoreCheck == nil }

    /// True when a scheduled store check is due at `now`.
    func storeCheckDue(at now: Int64) -> Bool { nextStoreCheck.map { now >= $0 } ?? false }

    /// True while a commit of this process would bring the scheduled check forward (the burst's first check
    /// only looked): the loop then takes this process's commits even though it does not listen to the store.
    var takesCommitsHere: Bool { listensToStore || firstCheckLooked }

    /// What a due store check does.
    enum StoreCheck: Equatable {
        /// Compare the store's change token, and reload if it moved (another process's write, or none).
        case look
        /// Reload: this process committed since the last check.
        case reload
    }

    /// The store was written (seen at `now`): a check at once, unless one is scheduled (the write folds
    /// into it). `here`: this process committed (told after its commit), so the check is a reload.
    mutating func storeWritten(at now: Int64, here: Bool = false) {
        writtenSinceCheck = true
        if here { committedHereSinceCheck = true }
        if nextStoreCheck == nil {
            (nextStoreCheck, scheduledCheckFollowsUp) = (now, false)
        } else if here && firstCheckLooked {
            nextStoreCheck = now
            firstCheckLooked = false
        }
    }

    /// The store check to make now, if one is due (and records it).
    mutating func takeStoreCheck(at now: Int64) -> StoreCheck? {
        guard storeCheckDue(at: now) else { return nil }
        firstCheckLooked = !scheduledCheckFollowsUp && !committedHereSinceCheck
        (nextStoreCheck, scheduledCheckFollowsUp) = writtenSinceCheck ? (now + frameMicros, true) : (nil, false)
        defer { writtenSinceCheck = false; committedHereSinceCheck = false }
        return committedHereSinceCheck ? .reload : .look
    }

    /// Whether a frame may be drawn at `now`: at once when it answers the user, else once its slot came.
    /// `onlyTicked`: only a tick (a spinner, relative times) changed what is drawn; while a store check is
    /// scheduled that frame waits for the check's own, which shows the tick too (drawn first, it would take
    /// the slot, and the frame showing the store's change would wait for the next one).
    func mayDraw(at now: Int64, answersUser: Bool, onlyTicked: Bool = false) -> Bool {
        if answersUser { return true }
        if onlyTicked && nextStoreCheck != nil { return false }
        return now - lastFrame >= frameMicros
    }

    /// A frame was drawn at `now`. One that changed nothing on screen (a reload that found what was shown)
    /// wrote nothing to the terminal, so it does not take the slot of the next frame that does. Nor does
    /// one that showed only a tick (`onlyTicked`: a relative time, a spinner): ticks come at most ten a
    /// second, and a store change right after one (about one event in thirty at a tick a second) waited a
    /// whole frame for its slot.
    mutating func drew(at now: Int64, changedScreen: Bool = true, onlyTicked: Bool = false) {
        if changedScreen && !onlyTicked { lastFrame = now }
    }

    /// The soonest the loop must wake for the store or a frame waiting for its slot (nil: neither).
    /// `framePending`: something waits to be drawn (`onlyTicked`: as for `mayDraw`).
    func deadline(framePending: Bool, onlyTicked: Bool = false) -> Int64? {
        let waitsForCheck = onlyTicked && nextStoreCheck != nil
        let frame = framePending && !waitsForCheck ? lastFrame + frameMicros : nil
        switch (nextStoreCheck, frame) {
        case let (check?, frame?): return min(check, frame)
        case let (check, frame): return check ?? frame
        }
    }
}
