import Testing
import TimelineCore
@testable import TimelineUI

/// `m`, `'`, `x`, `:save`, `:view` and the `v` picker: the pure model (effects asked for, state shown).
@Suite("Marks and views")
struct MarksAndViewsTests {
    @Test func markTogglesAndAsksTheRuntimeToStoreIt() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        let task = s.selectedRow!.taskID
        #expect(reduce(&s, .key(.char("m"))) == [.setMark(taskID: task, marked: true)])
        #expect(s.marks == [task])
        #expect(reduce(&s, .key(.char("m"))) == [.setMark(taskID: task, marked: false)])
        #expect(s.marks.isEmpty)
    }

    @Test func nextMarkSearchesMarkedTasksBelowAndWraps() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        #expect(reduce(&s, .key(.char("'"))).isEmpty)
        #expect(s.notice?.contains("no marked tasks") == true)
        s.marks = [s.window[3].taskID]
        let effects = reduce(&s, .key(.char("'")))
        guard case .findMatch(let request)? = effects.first else {
            Issue.record("expected a find, got \(effects)")
            return
        }
        #expect(request.query.marked == true && request.olderFirst && request.wrap)
        #expect(request.from == s.selectedRow!.key)
    }

    @Test func exportAsksForTheSelectedTask() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("j")))
        #expect(reduce(&s, .key(.char("x"))) == [.exportHistory(taskID: s.selectedRow!.taskID)])
        _ = reduce(&s, .actionFinished("exported T-2 to /tmp/x.md"))
        #expect(s.notice == "exported T-2 to /tmp/x.md")
    }

    @Test func saveAndViewCommands() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        for c in "/status:error" { _ = reduce(&s, .key(.char(c))) }
        _ = reduce(&s, .key(.enter))
        for c in ":save errs" { _ = reduce(&s, .key(.char(c))) }
        #expect(s.commandLine == "save errs")
        let effects = reduce(&s, .key(.enter))
        #expect(effects == [.saveView(NamedQuery(name: "errs", query: "status:error")), .rememberView(name: "errs")])
        #expect(s.views == [NamedQuery(name: "errs", query: "status:error")] && s.activeView == "errs")
        // Clear the search, then :view brings it back (and is remembered).
        _ = reduce(&s, .key(.escape))
        #expect(s.search.text.isEmpty)
        for c in ":view errs" { _ = reduce(&s, .key(.char(c))) }
        let applied = reduce(&s, .key(.enter))
        #expect(s.search.text == "status:error" && s.search.query.statuses == [.error])
        #expect(applied.contains(.rememberView(name: "errs")))
        #expect(applied.contains { if case .loadWindow = $0 { true } else { false } })
        for c in ":view nope" { _ = reduce(&s, .key(.char(c))) }
        _ = reduce(&s, .key(.enter))
        #expect(s.notice == "no view nope; views: errs")
        for c in "/ since:soon" { _ = reduce(&s, .key(.char(c))) }
        _ = reduce(&s, .key(.enter))
        for c in ":save later" { _ = reduce(&s, .key(.char(c))) }
        #expect(reduce(&s, .key(.enter)).isEmpty)
        #expect(s.notice?.hasPrefix("not saved: since:soon is not a time") == true)
        for c in ":save bad name" { _ = reduce(&s, .key(.char(c))) }
        #expect(reduce(&s, .key(.enter)).isEmpty)
        #expect(s.notice?.hasPrefix(":save NAME") == true)
    }

    @Test func pickerAppliesTheChosenView() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        _ = reduce(&s, .key(.char("v")))
        #expect(s.viewPicker == nil && s.notice?.hasPrefix("no views yet") == true)
        s.views = [NamedQuery(name: "a", query: "agent:x"), NamedQuery(name: "b", query: "-status:info")]
        _ = reduce(&s, .key(.char("v")))
        #expect(s.viewPicker == 0)
        _ = reduce(&s, .key(.char("j")))
        _ = reduce(&s, .key(.char("j")))
        #expect(s.viewPicker == 1)
        let effects = reduce(&s, .key(.enter))
        #expect(s.viewPicker == nil && s.activeView == "b" && s.search.query.excludedStatuses == [.info])
        #expect(effects.contains(.rememberView(name: "b")))
    }

    @Test func marksPickerAndCommandLineGoldens() {
        var s = loadedState(sampleRows(), width: 80, height: 24)
        s.marks = [s.window[0].taskID, s.window[2].taskID]
        s.views = [NamedQuery(name: "prod-errors", query: "status:error category:deploy"),
                   NamedQuery(name: "quiet", query: "-agent:heartbeat -\"dry run\"")]
        _ = applyView(&s, s.views[1])
        s.notice = "exported T-1 to /home/me/timeline-T-1-20261120-100000.md"
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-marks-view-notice")
        _ = reduce(&s, .key(.char("v")))
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-view-picker")
        _ = reduce(&s, .key(.escape))
        for c in ":save deploys" { _ = reduce(&s, .key(.char(c))) }
        GoldenScreen.check(render(s, width: 80, height: 24), "80x24-command-line")
    }
}
