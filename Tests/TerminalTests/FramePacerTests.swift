import Testing
@testable import Terminal

/// The pacing rule, driven by an injected clock (microseconds).
@Suite struct FramePacerTests {
    let check = FramePacer.checkMicros
    let frame = FramePacer.frameMicros

    @Test func aFirstWriteIsCheckedAtOnceAndABurstFoldsIntoOneCheckAFrame() {
        var pacer = FramePacer()
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: 1_000_000)
        let checked = pacer.takeStoreCheck(at: 1_000_000) != nil
        #expect(checked, "nothing checked in the last check: at once")
        #expect(!pacer.listensToStore, "writes now fold into the next check")
        #expect(pacer.deadline(framePending: false) == 1_000_000 + check)
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
        let second = pacer.takeStoreCheck(at: check - 1) != nil
        #expect(!second, "not before its slot")
        let third = pacer.takeStoreCheck(at: check) != nil
        #expect(third, "the commit may have been published after the write seen")
        #expect(pacer.listensToStore, "no write since: nothing more is scheduled")
        #expect(pacer.deadline(framePending: false) == nil, "idle: no timeout at all")
        let fourth = pacer.takeStoreCheck(at: 10 * check) != nil
        #expect(!fourth)
    }

    @Test func aWriteRightAfterAFollowUpThatFoundNothingIsCheckedAtOnce() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        _ = pacer.takeStoreCheck(at: check)
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: check + 10)
        let checked = pacer.takeStoreCheck(at: check + 10) != nil
        #expect(checked, "one event after another: the follow-up that found nothing does not delay it")
        #expect(pacer.deadline(framePending: false) == 2 * check + 10, "and it is followed up a check later")
    }

    @Test func writesNoticedAtAFollowUpAreCheckedThereAndFollowedUpAgain() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        // A write while the check is scheduled is not listened to: the loop finds it when the check is due.
        pacer.storeWritten(at: check)
        let checked = pacer.takeStoreCheck(at: check) != nil
        #expect(checked)
        #expect(!pacer.listensToStore, "writes came: one more check a check later")
        #expect(pacer.deadline(framePending: false) == 2 * check)
    }

    @Test func aCheckThatFoldsInACommitOfThisProcessIsAReloadAndItsFollowUpALook() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)
        #expect(pacer.takeStoreCheck(at: 0) == .look, "a WAL write alone: compare the change token")
        pacer.storeWritten(at: 10, here: false)
        pacer.storeWritten(at: 20, here: true)
        #expect(pacer.takeStoreCheck(at: check) == .reload, "a commit here among the writes: reload outright")
        #expect(pacer.takeStoreCheck(at: 2 * check) == .look, "the follow-up only looks")
        #expect(pacer.listensToStore)
        pacer.storeWritten(at: 10 * check, here: true)
        #expect(pacer.takeStoreCheck(at: 10 * check) == .reload, "after a quiet spell, at once")
    }

    @Test func aCommitHereToldAfterTheFirstLookIsReloadedAtOnceNotAFrameLater() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0)  // the WAL write, seen before the commit was published
        #expect(pacer.takeStoreCheck(at: 0) == .look)
        pacer.storeWritten(at: 300, here: true)
        #expect(pacer.storeCheckDue(at: 300), "the commit here is not held for the follow-up a check later")
        #expect(pacer.takeStoreCheck(at: 300) == .reload)
        pacer.storeWritten(at: 600, here: true)
        #expect(!pacer.storeCheckDue(at: 600), "the next commit waits for half a check after that reload")
        #expect(pacer.deadline(framePending: false) == 300 + check / 2)
        #expect(pacer.takeStoreCheck(at: 300 + check / 2) == .reload)
    }

    @Test func commitsHereAreReloadedAtMostTwiceAFrameAndOtherWritesOnceAFrame() {
        var pacer = FramePacer()
        pacer.storeWritten(at: 0, here: true)
        #expect(pacer.takeStoreCheck(at: 0) == .reload)
        pacer.storeWritten(at: 10)  // another process's write (or a background merge's)
        #expect(!pacer.storeCheckDue(at: check / 2), "folded into the follow-up")
        #expect(pacer.takeStoreCheck(at: check) == .look)
        pacer.storeWritten(at: check + 10, here: true)
        #expect(pacer.takeStoreCheck(at: check + 10) == .reload, "a look is not a reload: the commit is not held back")
        var reloads = 0
        var now = check + 10
        while now < check + 1_000_000 {  // a commit here every millisecond for a second
            now += 1_000
            pacer.storeWritten(at: now, here: true)
            if pacer.takeStoreCheck(at: now) == .reload { reloads += 1 }
        }
        #expect(reloads >= 55 && reloads <= 61, "at most two a check interval: \(reloads) reloads")
    }

    @Test func underSteadyCommitsHereEachIsReloadedAsItLandsAndItsRowsDrawnWhenRead() {
        // The poller commits 31 to 35 ms apart (its group-commit window, then the commit); each reload's rows are read 8 ms after it, and the poller's status changes at each
        // reload. The last commit's WAL writes, seen by inotify, make a look a check interval after a reload.
        var pacer = FramePacer()
        pacer.storeWritten(at: 0, here: true)
        _ = pacer.takeStoreCheck(at: 0)
        pacer.drew(at: 8_000)
        var commit: Int64 = 34_000
        var waitedForCheck: [Int64] = []
        var waitedForSlot: [Int64] = []
        for gap in [Int64](repeating: 31_000, count: 10) + [Int64](repeating: 35_000, count: 10) + [33_000, 31_000, 34_000] {
            if let due = pacer.nextStoreCheck, due < commit {
                pacer.storeWritten(at: due)
                #expect(pacer.takeStoreCheck(at: due) == .look)
            }
            pacer.storeWritten(at: commit, here: true)
            let reload = max(commit, pacer.nextStoreCheck ?? commit)
            #expect(pacer.takeStoreCheck(at: reload) == .reload)
            #expect(!pacer.mayDraw(at: reload, answersUser: false, incidental: true), "the status waits for the rows")
            let read = reload + 8_000
            var drawn = read
            while !pacer.mayDraw(at: drawn, answersUser: false) { drawn += 500 }
            pacer.drew(at: drawn)
            waitedForCheck.append(reload - commit)
            waitedForSlot.append(drawn - read)
            commit += gap
        }
        #expect(waitedForCheck.allSatisfy { $0 == 0 }, "\(waitedForCheck)")
        #expect(waitedForSlot.allSatisfy { $0 == 0 }, "\(waitedForSlot)")
    }

    @Test func backgroundFramesAreCappedButWhatAnswersTheUserIsDrawnAtOnce() {
        var pacer = FramePacer()
        #expect(pacer.mayDraw(at: 0, answersUser: false), "the first frame")
        pacer.drew(at: 0)
        #expect(!pacer.mayDraw(at: frame / 2, answersUser: false), "a store change waits for its slot")
        #expect(pacer.deadline(framePending: true) == frame, "and the loop wakes for it")
        #expect(pacer.mayDraw(at: frame / 2, answersUser: true), "a key press never waits for a slot")
        #expect(pacer.mayDraw(at: frame, answersUser: false))
        // Results arriving every millisecond for a second make at most 40 frames.
        var frames = 0
        for now in stride(from: Int64(1_000_000), to: 2_000_000, by: 1_000) where pacer.mayDraw(at: now, answersUser: false) {
            pacer.drew(at: now)
            frames += 1
        }
        #expect(frames >= 39 && frames <= 41, "\(frames) frames")
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
        #expect(pacer.mayDraw(at: frame, answersUser: false, incidental: true))
        pacer.drew(at: frame, incidental: true)  // the relative times moved on
        #expect(pacer.mayDraw(at: frame + 2_000, answersUser: false), "an event 2 ms after a tick is drawn at once")
        pacer.drew(at: frame + 2_000)
        #expect(!pacer.mayDraw(at: frame + 4_000, answersUser: false), "that frame takes its slot")
        #expect(!pacer.mayDraw(at: frame + 4_000, answersUser: false, incidental: true), "ticks wait for it too")
    }

    @Test func aTicksFrameWaitsForAScheduledStoreChecksFrameInsteadOfTakingItsSlot() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        #expect(pacer.mayDraw(at: frame, answersUser: false, incidental: true), "no store check scheduled: at its slot")
        pacer.storeWritten(at: frame)
        _ = pacer.takeStoreCheck(at: frame)  // the follow-up check is now scheduled a check interval later
        #expect(!pacer.mayDraw(at: frame + 1_000, answersUser: false, incidental: true),
                "the check's frame will show the tick, and the store's change not wait behind it")
        #expect(pacer.deadline(framePending: true, incidental: true) == 2 * frame,
                "woken two frame intervals after the last frame, or for the check if sooner")
        #expect(pacer.mayDraw(at: frame + 1_000, answersUser: false), "a store result waits only for its slot")
        #expect(pacer.mayDraw(at: frame + 1_000, answersUser: true, incidental: true), "a key is drawn at once")
        _ = pacer.takeStoreCheck(at: frame + check)
        #expect(pacer.listensToStore)
        #expect(pacer.mayDraw(at: frame + check, answersUser: false, incidental: true), "no check left: the tick is drawn")
    }

    @Test func anIncidentalFrameWaitsForAScheduledChecksFrameAtMostTwoFrameIntervals() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        pacer.storeWritten(at: 1_000)
        _ = pacer.takeStoreCheck(at: 1_000)
        pacer.storeWritten(at: 2_000)  // writes go on: each check schedules a follow-up
        _ = pacer.takeStoreCheck(at: 1_000 + check)
        #expect(!pacer.listensToStore)
        #expect(!pacer.mayDraw(at: 2 * frame - 1, answersUser: false, incidental: true))
        #expect(pacer.deadline(framePending: true, incidental: true) == 2 * frame,
                "woken two frame intervals after the last frame at the latest")
        #expect(pacer.mayDraw(at: 2 * frame, answersUser: false, incidental: true),
                "checks that bring nothing to draw do not hold the poller's status back for ever")
    }

    @Test func theDeadlineIsTheSoonerOfACheckAndAWaitingFrame() {
        var pacer = FramePacer()
        pacer.drew(at: 0)
        pacer.storeWritten(at: 0)
        _ = pacer.takeStoreCheck(at: 0)
        pacer.drew(at: 10_000)
        #expect(pacer.deadline(framePending: true) == check, "the check (33 ms) before the frame (10 + 25 ms)")
        #expect(pacer.deadline(framePending: false) == check)
        pacer.drew(at: 5_000)
        #expect(pacer.deadline(framePending: true) == 5_000 + frame, "the frame (5 + 25 ms) before the check")
    }
}
