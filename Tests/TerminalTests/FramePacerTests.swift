import Testing
@testable import Terminal

/// The pacing rule, driven by an injected clock (microseconds).
@Suite struct FramePacerTests {
    let frame = FramePacer.frameMicros

    @Test func aFirstWriteIsCheckedAtOnceAndABurstFoldsIntoOneCheckAFrame() {
        var pacer = FramePacer()
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: 1_000_000)
        let checked = pacer.takeStoreCheck(at: 1_000_000) != nil
        #expect(checked, "nothing checked in the last frame: at once")
        #expect(!pacer.listensToStore, "writes now fold into the next check")
        #expect(pacer.deadline(framePending: false) == 1_000_000 + frame)
        // A prune writes the WAL every ~1.4 ms: none of those writes is a check of its own.
        var checks = 1
        var now: Int64 = 1_000_000
        while now < 2_000_000 {
            now += 1_400
            if pacer.listensToStore || pacer.storeCheckDue(at: now) { pacer.storeWritten(at: now) }
            if pacer.takeStoreCheck(at: now) != nil { checks += 1 }
        }
        #expect(checks >= 28 && checks <= 31, "about 30 checks in a second of writes, not ~700: \(checks)")
    }

    @Test func aCheckCausedByWritesIsFollowedByOneMoreThenTheStoreIsListenedToAgain() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        let checked = pacer.takeStoreCheck(at: 0) != nil
        #expect(checked)
        let second = pacer.takeStoreCheck(at: frame - 1) != nil
        #expect(!second, "not before its slot")
        let third = pacer.takeStoreCheck(at: frame) != nil
        #expect(third, "the commit may have been published after the write seen")
        #expect(pacer.listensToStore, "no write since: nothing more is scheduled")
        #expect(pacer.deadline(framePending: false) == nil, "idle: no timeout at all")
        let fourth = pacer.takeStoreCheck(at: 10 * frame) != nil
        #expect(!fourth)
    }

    @Test func aWriteRightAfterAFollowUpThatFoundNothingIsCheckedAtOnce() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        _ = pacer.takeStoreCheck(at: frame)
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: frame + 10)
        let checked = pacer.takeStoreCheck(at: frame + 10) != nil
        #expect(checked, "one event after another: the follow-up that found nothing does not delay it")
        #expect(pacer.deadline(framePending: false) == 2 * frame + 10, "and it is followed up a frame later")
    }

    @Test func writesNoticedAtAFollowUpAreCheckedThereAndFollowedUpAgain() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        // A write while the check is scheduled is not listened to: the loop finds it when the check is due.
        pacer.storeWritten(at: frame)
        let checked = pacer.takeStoreCheck(at: frame) != nil
        #expect(checked)
        #expect(!pacer.listensToStore, "writes came: one more check a frame later")
        #expect(pacer.deadline(framePending: false) == 2 * frame)
    }

    @Test func aCheckThatFoldsInACommitOfThisProcessIsAReloadAndItsFollowUpALook() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        #expect(pacer.takeStoreCheck(at: 0) == .look, "a WAL write alone: compare the change token")
        pacer.storeWritten(at: 10, here: false)
        pacer.storeWritten(at: 20, here: true)
        #expect(pacer.takeStoreCheck(at: frame) == .reload, "a commit here among the writes: reload outright")
        #expect(pacer.takeStoreCheck(at: 2 * frame) == .look, "the follow-up only looks")
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: 10 * frame, here: true)
        #expect(pacer.takeStoreCheck(at: 10 * frame) == .reload, "after a quiet spell, at once")
    }

    @Test func aCommitHereToldAfterTheFirstLookIsReloadedAtOnceNotAFrameLater() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)  // the WAL write, seen before the commit was published
        #expect(pacer.takeStoreCheck(at: 0) == .look)
        #expect(pacer.takesCommitsHere, "the look may have found nothing: a commit here is taken meanwhile")
        pacer.storeWritten(at: 300, here: true)
        #expect(pacer.storeCheckDue(at: 300), "the commit here is not held for the follow-up a frame later")
        #expect(pacer.takeStoreCheck(at: 300) == .reload)
        #expect(!pacer.takesCommitsHere, "the burst's next commits fold into the follow-up")
        pacer.storeWritten(at: 600, here: true)
        #expect(!pacer.storeCheckDue(at: 600))
        #expect(pacer.deadline(framePending: false) == 300 + frame, "one reload a frame from there on")
        #expect(pacer.takeStoreCheck(at: 300 + frame) == .reload)
    }

    @Test func aFollowUpThatOnlyLookedDoesNotLetCommitsHereJumpTheirSlot() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0, here: true)
        #expect(pacer.takeStoreCheck(at: 0) == .reload)
        pacer.storeWritten(at: 10)  // another process's write (or a background merge's)
        #expect(pacer.takeStoreCheck(at: frame) == .look)
        #expect(!pacer.takesCommitsHere, "a follow-up is paced: writes during a burst are checked once a frame")
        pacer.storeWritten(at: frame + 10, here: true)
        #expect(!pacer.storeCheckDue(at: frame + 10))
        #expect(pacer.takeStoreCheck(at: 2 * frame) == .reload)
    }

    @Test func backgroundFramesAreCappedButWhatAnswersTheUserIsDrawnAtOnce() {
        var pacer = FramePacer()
        #expect(pacer.mayDraw(at: 0, answersUser: false), "the first frame")
        pacer.drew(at: 0)
        #expect(!pacer.mayDraw(at: frame / 2, answersUser: false), "a store change waits for its slot")
        #expect(pacer.deadline(framePending: true) == frame, "and the loop wakes for it")
        #expect(pacer.mayDraw(at: frame / 2, answersUser: true), "a key press never waits for a slot")
        #expect(pacer.mayDraw(at: frame, answersUser: false))
        // Results arriving every millisecond for a second make at most ~30 frames.
        var frames = 0
        for now in stride(from: Int64(1_000_000), to: 2_000_000, by: 1_000) where pacer.mayDraw(at: now, answersUser: false) {
            pacer.drew(at: now)
            frames += 1
        }
        #expect(frames >= 29 && frames <= 31, "\(frames) frames")
    }

    @Test func aFrameThatChangedNothingDoesNotTakeTheSlotOfTheNextThatDoes() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        pacer.drew(at: frame, changedScreen: false)  // a follow-up reload that found what was shown
        #expect(pacer.mayDraw(at: frame + 10, answersUser: false), "the next event is drawn at once")
        pacer.drew(at: frame + 10)
        #expect(!pacer.mayDraw(at: frame + 20, answersUser: false), "a frame that changed the screen takes its slot")
    }

    @Test func aFrameThatShowedOnlyATickDoesNotTakeTheSlotOfAStoreChangeRightAfter() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        #expect(pacer.mayDraw(at: frame, answersUser: false, onlyTicked: true))
        pacer.drew(at: frame, onlyTicked: true)  // the relative times moved on
        #expect(pacer.mayDraw(at: frame + 2_000, answersUser: false), "an event 2 ms after a tick is drawn at once")
        pacer.drew(at: frame + 2_000)
        #expect(!pacer.mayDraw(at: frame + 4_000, answersUser: false), "that frame takes its slot")
        #expect(!pacer.mayDraw(at: frame + 4_000, answersUser: false, onlyTicked: true), "ticks wait for it too")
    }

    @Test func aTicksFrameWaitsForAScheduledStoreChecksFrameInsteadOfTakingItsSlot() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        #expect(pacer.mayDraw(at: frame, answersUser: false, onlyTicked: true), "no store check scheduled: at its slot")
        pacer.storeWritten(at: frame)
        _ = pacer.takeStoreCheck(at: frame)  // the follow-up check is now scheduled a frame later
        #expect(!pacer.mayDraw(at: frame + 1_000, answersUser: false, onlyTicked: true),
                "the check's frame will show the tick, and the store's change not wait behind it")
        #expect(pacer.deadline(framePending: true, onlyTicked: true) == 2 * frame, "woken for the check, not the tick")
        #expect(pacer.mayDraw(at: frame + 1_000, answersUser: false), "a store result waits only for its slot")
        #expect(pacer.mayDraw(at: frame + 1_000, answersUser: true, onlyTicked: true), "a key is drawn at once")
        _ = pacer.takeStoreCheck(at: 2 * frame)
        #expect(pacer.listensToStore)
        #expect(pacer.mayDraw(at: 2 * frame, answersUser: false, onlyTicked: true), "no check left: the tick is drawn")
    }

    @Test func theDeadlineIsTheSoonerOfACheckAndAWaitingFrame() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        pacer.drew(at: 5_000)
        #expect(pacer.deadline(framePending: true) == frame, "the check (frame) before the frame (5 ms + frame)")
        #expect(pacer.deadline(framePending: false) == frame)
    }
}
