import Foundation
import Testing
import TestSupport
import TimelineCore
import TimelineStore
@testable import Terminal

/// The inotify watch that lets `timeline tui` notice another process's commit without polling.
@Suite("StoreWatcher")
struct StoreWatcherTests {
    static func event(_ n: Int) -> Event {
        Event(id: "w\(n)", agentID: "agent", taskID: "task-\(n)", title: "event \(n)", body: "", status: .info,
              category: nil, timestampMicros: 1_795_316_400_000_000 + Int64(n), rawJSON: "{}")
    }

    /// Waits (generously: functional, not timed) until the watcher's descriptor is readable.
    static func readable(_ watcher: StoreWatcher, seconds: Int32 = 10) -> Bool {
        var fd = pollfd(fd: watcher.fd, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, seconds * 1000) == 1
    }

    @Test func aCommitByAnotherConnectionIsReported() throws {
        let dir = try TemporaryDirectory(prefix: "timeline-watch")
        let path = dir.file("timeline.db")
        let writer = try TimelineStore(path: path)
        let watcher = try #require(StoreWatcher(databasePath: path))
        _ = watcher.drain()
        _ = try writer.ingest([.event(Self.event(1), messageID: nil)])
        #expect(Self.readable(watcher))
        #expect(watcher.drain())
        #expect(!watcher.drain(), "drained: nothing more until the next write")
    }

    @Test func aDatabaseCreatedAfterTheWatchIsReported() throws {
        let dir = try TemporaryDirectory(prefix: "timeline-watch")
        let path = dir.file("later.db")
        let watcher = try #require(StoreWatcher(databasePath: path))
        let writer = try TimelineStore(path: path)
        _ = try writer.ingest([.event(Self.event(1), messageID: nil)])
        #expect(Self.readable(watcher))
        #expect(watcher.drain())
        // The WAL is watched from its creation on: the next commit is reported too.
        _ = try writer.ingest([.event(Self.event(2), messageID: nil)])
        #expect(Self.readable(watcher))
        #expect(watcher.drain())
    }

    @Test func otherFilesInTheDirectoryAreNotReported() throws {
        let dir = try TemporaryDirectory(prefix: "timeline-watch")
        let path = dir.file("timeline.db")
        _ = try TimelineStore(path: path)
        let watcher = try #require(StoreWatcher(databasePath: path))
        _ = watcher.drain()
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("notes.txt")))
        #expect(Self.readable(watcher), "the directory watch sees the new file")
        #expect(!watcher.drain(), "but it is not the database's log")
    }
}

/// The pipe the runtime's lanes and the in-process poller signal to wake the loop.
@Suite("WakePipe")
struct WakePipeTests {
    @Test func signalsCoalesceAndDrainEmptiesThePipe() throws {
        let pipe = try #require(WakePipe())
        var fd = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fd, 1, 0) == 0, "nothing signalled yet")
        for _ in 0..<10_000 { pipe.signal() }  // more than a pipe holds: never blocks
        #expect(poll(&fd, 1, 0) == 1)
        pipe.drain()
        fd.revents = 0
        #expect(poll(&fd, 1, 0) == 0)
    }
}
