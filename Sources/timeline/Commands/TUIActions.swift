import Foundation
import TimelineConfig
import TimelineCore
import TimelineRuntime
import TimelineStore
import TimelineUI

/// The TUI's marks, views and exports: the database, the config file and the current directory.
final class TUIActions: TimelineActions, Sendable {
    /// Where the TUI remembers the last view it applied (in the database's `meta`).
    static let lastViewKey = "tui.last_view"
    /// Where the TUI keeps the `/` prompt's searches, one a line, oldest first.
    static let searchHistoryKey = "tui.search_history"

    /// Where the TUI keeps the pinned task ids, one a line, newest pin first.
    static let pinsKey = "tui.pins"

    /// The pinned task ids, newest pin first.
    static func pins(_ store: TimelineStore) throws -> [String] {
        try store.setting(pinsKey).map { $0.split(separator: "\n").map(String.init) } ?? []
    }

    /// The kept searches (`SearchHistory`), oldest first.
    static func searchHistory(_ store: TimelineStore) throws -> [String] {
        guard let text = try store.setting(searchHistoryKey) else { return [] }
        return SearchHistory.bounded(text.split(separator: "\n").map(String.init))
    }

    private let store: TimelineStore
    private let configPath: String
    private let directory: String

    init(databasePath: String, configPath: String, directory: String = FileManager.default.currentDirectoryPath) throws {
        store = try TimelineStore(path: databasePath)
        self.configPath = configPath
        self.directory = directory
    }

    func setMark(taskID: String, marked: Bool) throws {
        try store.setMark(taskID: taskID, marked: marked)
    }

    func saveView(_ view: NamedQuery) throws -> String {
        _ = try ConfigWriter.saveView(name: view.name, query: view.query, path: configPath)
        return configPath
    }

    func rememberView(name: String?) throws {
        try store.setSetting(Self.lastViewKey, name)
    }

    func setPins(_ taskIDs: [String]) throws {
        let ids = taskIDs.filter { !$0.contains("\n") && !$0.contains("\r") }
        try store.setSetting(Self.pinsKey, ids.isEmpty ? nil : ids.joined(separator: "\n"))
    }

    func rememberSearches(_ history: [String]) throws {
        // A line break cannot be typed in the prompt; a pasted one must not split an entry in two.
        let lines = SearchHistory.bounded(history).map { $0.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ") }
        try store.setSetting(Self.searchHistoryKey, lines.joined(separator: "\n"))
    }

    /// `timeline-TASK-YYYYMMDD-HHMMSS.md` (the task id reduced to letters, digits, `-`, `_`, `.`), never
    /// replacing an existing file.
    func exportHistory(taskID: String) throws -> String {
        var report = MarkdownReport(title: "Task \(taskID)")
        var events: [(event: Event, seq: Int64)] = []
        try store.forEachEvent(in: ExportSelection(taskIDs: [taskID]), groupedByTask: true) { events.append(($0, $1)) }
        guard !events.isEmpty else { throw CommandFailure("task \(taskID) has no stored events") }
        report.addTask(events)
        let safe = String(taskID.unicodeScalars.prefix(60).map {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) ? Character($0) : "_"
        })
        let stamp = TimeFormat.absolute(micros: TimeFormat.nowMicros(), utc: false)
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "").replacingOccurrences(of: " ", with: "-")
        var path = directory + "/timeline-\(safe)-\(stamp).md"
        var suffix = 2
        while FileManager.default.fileExists(atPath: path) {
            path = directory + "/timeline-\(safe)-\(stamp)-\(suffix).md"
            suffix += 1
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        try handle.write(contentsOf: Data(report.text.utf8))
        return path
    }
}
