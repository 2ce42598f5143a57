/// Paces what the store's writes cost the terminal loop: store checks about 30 a second, frames at most 40.
///
/// - **Store checks.** The first write noticed (inotify on the WAL, or a commit in this process) is checked
///   at once. A check caused by writes is followed by one more a check interval later (a write may land
///   just before SQLite publishes its commit), which also picks up the writes that came meanwhile; until
///   then the loop stops listening to the store, so a burst of writes (hundreds a second during a prune)
///   wakes it once per interval instead of once per write. An event after a quiet spell, even one right
///   after a follow-up that found nothing, is checked at once.
/// - **Commits of this process** (`storeWritten(at:here: true)`, told after the commit) are reloaded
///   outright (the store surely changed: comparing its change token first would only cost a round trip
///   through the read lane), at once when the last reload was at least half a check interval ago, else
///   half an interval after it: a scheduled check comes forward for them. Under steady traffic the poller
///   commits about once a check interval (its group-commit window), so each commit is reloaded as it lands
///   instead of waiting for a check whose phase has nothing to do with it (half an interval on average).
/// - **Frames.** What answers the user (a key, a paste, a resize, and the loads they started) is drawn at
///   once. What only follows the store or a tick is drawn at most once a frame interval: a frame due
///   sooner waits for its slot. An incidental frame (only a tick, the poller's status, counts or the
///   header's attention counts changed) waits for a scheduled store check's frame, which shows it too, for
///   at most two frame intervals after the last frame, and it leaves the slot to the store's next. So
///   under a steady load each reload's rows are drawn as soon as they are read, instead of a frame of the
///   poller's status taking the slot just before them and the rows waiting a frame behind it.
///
/// Pure (the clock is passed in, in microseconds), so the rule is tested without a terminal.
struct FramePacer {
    /// Store checks for other processes' writes: about 30 a second.
    static let checkMicros: Int64 = 33_000
    /// Frames that do not answer the user: at most 40 a second. A little shorter than a check interval, so
    /// that each reload's frame is drawn when its rows are read though the commits it follows come a little
    /// less than a check interval apart at times (a frame that waited would make the next ones wait too).
    static let frameMicros: Int64 = 25_000

    /// When the next store check is due; nil while none is scheduled (the loop then listens to the store).
    private(set) var nextStoreCheck: Int64?
    private var writtenSinceCheck = false
    /// A commit of this process is among the writes since the last check.
    private var committedHereSinceCheck = false
    /// When the last check that reloaded was made.
    private var lastReload: Int64 = .min / 2
    private var lastFrame: Int64 = .min / 2

    /// False while a store check is scheduled: writes until then fold into it, so the loop need not wake
    /// for each one (it looks for them when the check is due: `storeCheckDue`).
    var listensToStore: Bool { nextStoreCheck == nil }

    /// True when a scheduled store check is due at `now`.
    func storeCheckDue(at now: Int64) -> Bool { nextStoreCheck.map { now >= $0 } ?? false }

    /// What a due store check does.
    enum StoreCheck: Equatable {
        /// Compare the store's change token, and reload if it moved (another process's write, or none).
        case look
        /// Reload: this process committed since the last check.
        case reload
    }

    /// The store was written (seen at `now`): a check at once, unless one is scheduled (the write folds
    /// into it). `here`: this process committed (told after its commit), so the check is a reload, and it
    /// comes forward to now or half a check interval after the last reload, whichever is later.
    mutating func storeWritten(at now: Int64, here: Bool = false) {
        writtenSinceCheck = true
        if here { committedHereSinceCheck = true }
        let soonest = here ? max(now, lastReload + Self.checkMicros / 2) : now
        if let scheduled = nextStoreCheck {
            if here { nextStoreCheck = min(scheduled, soonest) }
        } else {
            nextStoreCheck = soonest
        }
    }

    /// The store check to make now, if one is due (and records it).
    mutating func takeStoreCheck(at now: Int64) -> StoreCheck? {
        guard storeCheckDue(at: now) else { return nil }
        nextStoreCheck = writtenSinceCheck ? now + Self.checkMicros : nil
        defer { writtenSinceCheck = false; committedHereSinceCheck = false }
        guard committedHereSinceCheck else { return .look }
        lastReload = now
        return .reload
    }

    /// Whether a frame may be drawn at `now`: at once when it answers the user, else once its slot came.
    /// `incidental`: only a tick (a spinner, relative times), the poller's status or counts changed what is
    /// drawn (`DrainedResults.incidental`); while a store check is scheduled that frame waits for the
    /// check's own, which shows it too (drawn first, it would take the slot, and the frame showing the
    /// store's change would wait for the next one), but not past two frame intervals after the last frame.
    func mayDraw(at now: Int64, answersUser: Bool, incidental: Bool = false) -> Bool {
        answersUser || now >= slot(incidental: incidental)
    }

    /// A frame was drawn at `now`. One that changed nothing on screen (a reload that found what was shown)
    /// wrote nothing to the terminal, so it does not take the slot of the next frame that does. Nor does
    /// an incidental one (a relative time, a spinner, the poller's status, counts): it is drawn only while
    /// no store check is scheduled (or after waiting two frame intervals for one), and a store change right
    /// after it waited a whole frame for its slot.
    mutating func drew(at now: Int64, changedScreen: Bool = true, incidental: Bool = false) {
        if changedScreen && !incidental { lastFrame = now }
    }

    /// When a frame that does not answer the user may be drawn.
    private func slot(incidental: Bool) -> Int64 {
        lastFrame + (incidental && nextStoreCheck != nil ? 2 * Self.frameMicros : Self.frameMicros)
    }

    /// The soonest the loop must wake for the store or a frame waiting for its slot (nil: neither).
    /// `framePending`: something waits to be drawn (`incidental`: as for `mayDraw`).
    func deadline(framePending: Bool, incidental: Bool = false) -> Int64? {
        let frame = framePending ? slot(incidental: incidental) : nil
        switch (nextStoreCheck, frame) {
        case let (check?, frame?): return min(check, frame)
        case let (check, frame): return check ?? frame
        }
    }
}
