import Foundation
import TimelineCore
import Testing
import TimelineRuntime
import TimelineStore
import TestSupport
@testable import TimelineUI

/// Fixed clock for the store-backed tests (the same instant as TimelineUITests' fixtures): 2026-11-22 03:00:00 UTC.
let fixedNow: Int64 = 1_795_316_400_000_000

/// Stores numbered task `T-n`'s event (`e<n>`, titled `task <n>`, `n` ms after `fixedNow`) with `writer`: each
/// numbered task is newer than the last, so it tops the list.
func publishNumbered(_ n: Int, with writer: TimelineStore) throws {
    _ = try writer.ingest([.event(Event(id: "e\(n)", agentID: "agent-1", taskID: "T-\(n)", title: "task \(n)", body: "",
                                        status: .info, category: nil, timestampMicros: fixedNow + Int64(n) * 1_000,
                                        rawJSON: "{}"),
                                  messageID: nil)])
}

/// A real TimelineStore on a temp SQLite file, a writer connection for the test, and a controller
/// reading through its own connection (as `timeline tui` does).
final class StoreHarness {
    let directory: TemporaryDirectory
    let writer: TimelineStore
    let controller: TimelineController
    private var seq = 0
    private var clock = fixedNow

    init(width: Int = 80, height: Int = 12, sendReply: (@Sendable (ReplyRecord) -> ReplyRecord)? = nil,
         pollerStatus: (@Sendable () -> PollerStatusView)? = nil) throws {
        directory = try TemporaryDirectory(prefix: "timeline-ui")
        let path = directory.file("timeline.db")
        writer = try TimelineStore(path: path)
        controller = TimelineController(state: AppState(width: width, height: height, nowMicros: fixedNow),
                                        makeReader: { try TimelineStore(path: path) }, pollerStatus: pollerStatus,
                                        countDebounce: 0, sendReply: sendReply)
    }

    var state: AppState { controller.state }

    /// Stores one event `secondsAgo` before the fixed clock; returns it.
    @discardableResult
    func publish(_ task: String, _ title: String? = nil, status: Status = .info, agent: String = "agent-1",
                 category: String? = nil, secondsAgo: Int64, body: String = "") throws -> Event {
        seq += 1
        let event = Event(id: "e\(seq)", agentID: agent, taskID: task, title: title ?? "title of \(task)", body: body,
                          status: status, category: category, timestampMicros: fixedNow - secondsAgo * 1_000_000,
                          rawJSON: "{}")
        _ = try writer.ingest([.event(event, messageID: nil)])
        return event
    }

    /// Stores a parsed payload (e.g. a question with actions and reply_to).
    func publish(json: String) throws {
        _ = try writer.ingest([.event(try EventParser.parse(json).get(), messageID: nil)])
    }

    /// Starts the controller and waits for its first loads.
    func start() {
        controller.start()
        settle()
    }

    /// Sends inputs and waits for every resulting load; then a frame is drawn, as the terminal loop does
    /// when keys come one at a time.
    func send(_ inputs: Input...) {
        for input in inputs { controller.send(input) }
        settle()
        controller.drawn()
    }

    /// Waits for every load in flight; a controller that does not settle fails the running test.
    func settle(sourceLocation: SourceLocation = #_sourceLocation) {
        do { try controller.settle() } catch { Issue.record("\(error)", sourceLocation: sourceLocation) }
    }

    func press(_ keys: Key...) { for key in keys { send(.key(key)) } }

    func type(_ text: String) { for c in text { send(.key(.char(c))) } }

    /// Simulates the loop noticing another connection's write.
    func storeChanged() { send(.storeChanged) }

    /// Advances the clock by `micros` through a tick.
    func tick(by micros: Int64) {
        clock += micros
        send(.tick(nowMicros: clock))
    }

    /// Task ids of the rows on screen, top to bottom.
    var visibleTasks: [String] {
        let s = state
        let top = s.selected - s.selectedLine
        return (0..<s.listHeight).compactMap { line in
            let i = top + line
            return s.window.indices.contains(i) ? s.window[i].taskID : nil
        }
    }

    var selectedTask: String? { state.selectedRow?.taskID }
}
