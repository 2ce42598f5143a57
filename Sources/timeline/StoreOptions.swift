import ArgumentParser
import Foundation
import TimelineStore

/// `--db PATH` for every command that touches the store.
///
/// Resolution order: `--db`, `TIMELINE_DB`, `$XDG_DATA_HOME/timeline/timeline.db` (when XDG_DATA_HOME is an
/// absolute path), `~/.local/share/timeline/timeline.db`. Directories the command creates are 0700; the
/// database file is created 0600 by the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "Database file (default: $TIMELINE_DB, else $XDG_DATA_HOME/timeline/timeline.db, else ~/.local/share/timeline/timeline.db).",
        valueName: "path"))
    var databasePath: String?

    /// The database path this invocation uses.
    func resolvedPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let databasePath, !databasePath.isEmpty { return databasePath }
        if let fromEnvironment = environment["TIMELINE_DB"], !fromEnvironment.isEmpty { return fromEnvironment }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/timeline/timeline.db"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/timeline/timeline.db"
    }

    /// Opens the store for writing, creating missing directories (0700) and the file (0600).
    func openForWriting() throws -> TimelineStore {
        let path = resolvedPath()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        return try TimelineStore(path: path)
    }

    /// Opens an existing store read-only; nil (after saying so on stderr) when there is no database yet.
    func openForReading() throws -> TimelineStore? {
        let path = resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else {
            standardError("No database at \(path) yet: nothing stored. Feed it with `timeline import FILE` or `timeline poll`.")
            return nil
        }
        return try TimelineStore(path: path, readOnly: true)
    }
}

/// Writes one line to standard error.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
