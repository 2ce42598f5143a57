import TestSupport
import Foundation
import Testing
@testable import TimelineCore

@Suite struct EventParserRobustnessTests {
    /// Mutated and truncated examples, random bytes and pathological nesting always give a result, never a trap.
    @Test func neverTrapsOnMutatedInput() throws {
        var rng = SplitMix64(seed: 2026)
        let seeds = try ExamplePayloads.bodies("valid").map(\.bytes) + ExamplePayloads.bodies("invalid").map(\.bytes)
        var accepted = 0, rejected = 0
        let interesting: [UInt8] = Array("{}[]\",:\\u0123456789.eE+-tfnrl \n\t".utf8) + [0x00, 0x80, 0xC3, 0xE2, 0xF0, 0xFF, 0xED]
        for _ in 0..<20_000 {
            var bytes = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0...Int(rng.next() % 4) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 4 {
                case 0: bytes[at] = interesting[Int(rng.next() % UInt64(interesting.count))]
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(interesting[Int(rng.next() % UInt64(interesting.count))], at: at)
                default: bytes = Array(bytes[..<at])
                }
            }
            switch EventParser.parse(bytes) {
            case .success: accepted += 1
            case .failure(let rejection):
                rejected += 1
                #expect(!rejection.reason.isEmpty && !rejection.reason.contains("\n"))
            }
        }
        #expect(accepted > 0 && rejected > 0)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = EventParser.parse(bytes)
        }
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 200_000)
        #expect(reason(deep) == "message is not valid JSON: nesting deeper than 128 levels at byte 128")
        // The top-level object is level 1; the 128th nested object (level 129) starts at 5 + 127 × 5.
        let object = Array(#"{"a":"#.utf8) + Array(String(repeating: #"{"a":"#, count: 50_000).utf8)
        #expect(reason(object) == "message is not valid JSON: nesting deeper than 128 levels at byte 640")
    }

    @Test func boolIsNotANumberAndNumbersAreNotStrings() throws {
        let base = #"{"id":"e","agent_id":"a","task_id":"t","title":"x","status":"info","timestamp":"2026-11-22T03:04:05Z""#
        #expect(reason(Array((base + #","progress":1}"#).utf8)) == nil)
        #expect(try EventParser.parse(base + #","progress":1}"#).get().progress == 1)
        #expect(reason(Array((base + #","progress":false}"#).utf8)) == #"field "progress" must be a number from 0 to 100, got false"#)
        #expect(reason(Array((base + #","category":null}"#).utf8)) == nil)
    }

    @Test func schemaStatesTheSameLimits() throws {
        let url = ExamplePayloads.root.deletingLastPathComponent().appendingPathComponent("event.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        func bytes(_ field: String) -> Int? { properties[field]?["x-maxUtf8Bytes"] as? Int }
        #expect(schema["x-maxMessageBytes"] as? Int == EventLimits.messageBytes)
        #expect(bytes("id") == EventLimits.idBytes && bytes("agent_id") == EventLimits.idBytes && bytes("task_id") == EventLimits.idBytes)
        #expect(bytes("title") == EventLimits.titleBytes)
        #expect(bytes("body") == EventLimits.bodyBytes)
        let category = try #require((properties["category"]?["anyOf"] as? [[String: Any]])?.last)
        #expect(category["x-maxUtf8Bytes"] as? Int == EventLimits.categoryBytes)
        #expect(properties["status"]?["enum"] as? [String] == Status.allCases.map(\.rawValue))
        #expect(schema["required"] as? [String] == ["id", "agent_id", "task_id", "title", "status", "timestamp"])
    }

    private func reason(_ bytes: [UInt8]) -> String? {
        if case .failure(let rejection) = EventParser.parse(bytes) { return rejection.reason }
        return nil
    }
}
