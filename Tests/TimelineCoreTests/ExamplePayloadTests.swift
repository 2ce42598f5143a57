import Foundation
import Testing
@testable import TimelineCore

/// Runs every shared example payload through `EventParser`.
@Suite struct ExamplePayloadTests {
    @Test func everyInvalidExampleIsRejectedWithItsExactReason() throws {
        let reasons = try ExamplePayloads.reasons()
        let bodies = try ExamplePayloads.bodies("invalid")
        #expect(bodies.count >= 40)
        #expect(Set(bodies.map(\.name)) == Set(reasons.keys), "every invalid body needs a reason and vice versa")
        for (name, bytes) in bodies {
            switch EventParser.parse(bytes) {
            case .success: Issue.record("\(name): accepted, expected \(reasons[name] ?? "?")")
            case .failure(let rejection): #expect(rejection.reason == reasons[name], "\(name)")
            }
        }
    }

    @Test func everyValidExampleParsesWithItsExpectedFields() throws {
        let expectations = try ExamplePayloads.expectations()
        let bodies = try ExamplePayloads.bodies("valid")
        #expect(bodies.count >= 10)
        #expect(Set(expectations.keys).isSubset(of: Set(bodies.map(\.name))))
        for (name, bytes) in bodies {
            switch EventParser.parse(bytes) {
            case .failure(let rejection): Issue.record("\(name): rejected: \(rejection.reason)")
            case .success(let event):
                #expect(event.rawJSON == String(decoding: bytes, as: UTF8.self), "\(name): raw JSON kept as sent")
                check(event, against: expectations[name] ?? [:], name: name)
            }
        }
    }

    @Test func generatedCasesBehaveAsTheManifestSays() throws {
        let cases = try ExamplePayloads.generated()
        #expect(cases.contains { $0.name == "body-1mib" })
        for example in cases {
            let result = EventParser.parse(example.bytes)
            switch (result, example.reason) {
            case (.failure(let rejection), let reason?): #expect(rejection.reason == reason, "\(example.name)")
            case (.success(let event), nil): check(event, against: example.expect ?? [:], name: example.name)
            case (.success, let reason?): Issue.record("\(example.name): accepted, expected \(reason)")
            case (.failure(let rejection), nil): Issue.record("\(example.name): rejected: \(rejection.reason)")
            }
        }
    }

    private func check(_ event: Event, against expected: [String: JSONValue], name: String) {
        for (field, value) in expected {
            let actual: JSONValue
            switch field {
            case "id": actual = .string(event.id)
            case "task_id": actual = .string(event.taskID)
            case "title": actual = .string(event.title)
            case "body": actual = .string(event.body)
            case "status": actual = .string(event.status.rawValue)
            case "category": actual = event.category.map(JSONValue.string) ?? .null
            case "progress": actual = event.progress.map(JSONValue.number) ?? .null
            case "step": actual = .bool(event.isStep)
            case "timestamp_micros": actual = .number(Double(event.timestampMicros))
            case "body_bytes": actual = .number(Double(event.body.utf8.count))
            default: Issue.record("\(name): unknown expectation \(field)"); continue
            }
            #expect(actual == value, "\(name).\(field)")
        }
    }
}
