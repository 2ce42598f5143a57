import ArgumentParser
import Attention
import Foundation
import TimelineStore

/// `timeline status`: the fleet in one line for a status bar, from the database only (no network).
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the fleet state in one line (for tmux, starship, waybar); exit 1 when something needs you.",
        discussion: """
            Reads only the local database. Exit status 1 when there are unread errors or tasks waiting for \
            you, 2 when the database or the config file cannot be read, else 0. tmux: set -g status-right '#(timeline status --format tmux)'
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case plain, tmux, json }

    @OptionGroup var store: StoreOptions

    @Option(help: "plain, tmux (with #[fg=…] colours) or json.")
    var format: Format = .plain

    func run() throws {
        guard let counts = try Self.counts(store) else {
            switch format {
            case .plain: print(FleetLine.noDatabase())
            case .tmux: print(FleetLine.noDatabase(plain: false))
            case .json: print(FleetLine.noDatabaseJSON)
            }
            return
        }
        let line: String
        switch format {
        case .plain: line = FleetLine.plain(counts)
        case .tmux: line = FleetLine.tmux(counts)
        case .json: line = FleetLine.json(counts)
        }
        print(line)
        if counts.needsAttention { throw ExitCode(1) }
    }

    /// The counts; nil when there is no database yet.
    static func counts(_ store: StoreOptions) throws -> FleetCounts? {
        let path = try store.resolvedPath()
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try TimelineStore(path: path, readOnly: true).fleetCounts()
        } catch StoreError.schemaNotReady {
            // An older file: migrate it once (a write, local only).
            return try TimelineStore(path: path).fleetCounts()
        }
    }
}
