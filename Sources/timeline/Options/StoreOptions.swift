import ArgumentParser
import Foundation
import TimelineConfig
import TimelineCore
import TimelineStore

/// `--db PATH` for every command that touches the store.
///
/// Resolution order: `--db`, `TIMELINE_DB`, `db` in the config file, `$XDG_DATA_HOME/timeline/timeline.db` (when
/// XDG_DATA_HOME is an absolute path), `~/.local/share/timeline/timeline.db`. Directories the command creates are 0700; the
/// database file is created 0600 by the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "Database file (default: $TIMELINE_DB, else `db` in the config file, else $XDG_DATA_HOME/timeline/timeline.db, else ~/.local/share/timeline/timeline.db).",
        valueName: "path"))
    var databasePath: String?

    /// The database path this invocation uses (an invalid config file is an error).
    func resolvedPath() throws -> String {
        try setting().value!
    }

    /// The database path and where it came from.
    func setting() throws -> Setting {
        let environment = ProcessInfo.processInfo.environment
        var setting = try UserConfig.resolver().resolve(
            "db", flag: databasePath, flagName: "--db", environmentNames: ["TIMELINE_DB"],
            fallback: Self.defaultPath(environment: environment))
        setting.value = setting.value.map { UserConfig.expandingTilde($0) }
        return setting
    }

    /// `$XDG_DATA_HOME/timeline/timeline.db` (an absolute XDG_DATA_HOME), else `~/.local/share/timeline/timeline.db`.
    static func defaultPath(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return xdg + "/timeline/timeline.db"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/timeline/timeline.db"
    }

    /// Opens the store for writing, creating missing directories (0700) and the file (0600).
    func openForWriting() throws -> TimelineStore {
        let path = try resolvedPath()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        return try TimelineStore(path: path)
    }

    /// Opens an existing store read-only; nil when there is no database yet. Every reading command (`list`,
    /// `history`, `rejected`, `export`, `mark` without ids; `status` prints `no data yet`) treats that the
    /// same way: nothing was ever stored, which is not a failure: this note on stderr, nothing on stdout, exit 0.
    func openForReading() throws -> TimelineStore? {
        let path = try resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else {
            standardError(Self.noDatabaseNote(path))
            return nil
        }
        return try TimelineStore(path: path, readOnly: true)
    }
}

extension StoreOptions {
    static func noDatabaseNote(_ path: String) -> String {
        "No database at \(DisplayText.escaped(path)) yet: nothing stored. Feed it with `timeline import FILE` or `timeline poll`."
    }
}

/// Writes one line to standard error.
func standardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
