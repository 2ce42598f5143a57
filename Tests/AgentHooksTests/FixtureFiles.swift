import AgentHooks
import Foundation
import StrictJSON

/// The fixtures beside this file.
enum FixtureFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func input(_ name: String) throws -> HookInput {
        guard let input = HookInput.parse(Array(try data(name))) else { throw FixtureError(name: name) }
        return input
    }

    static func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".json") }.sorted()
    }
}

struct FixtureError: Error, Sendable { var name: String }
