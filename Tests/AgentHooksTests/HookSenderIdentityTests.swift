import AgentHooks
import Foundation
import Testing

@Suite("Hook sender identity")
struct HookSenderIdentityTests {
    let base = ["HOME": "/home/a", "AWS_PROFILE": "dev", "TIMELINE_QUEUE_URL": "https://sqs.example/1/q", "PWD": "/x"]

    @Test func theSameSettingsMakeTheSameIdentity() {
        #expect(HookSenderIdentity.make(environment: base, files: []) == HookSenderIdentity.make(environment: base, files: []))
        // What does not change where or how a hook sends does not count.
        var elsewhere = base
        elsewhere["PWD"] = "/y"
        elsewhere["TERM"] = "xterm"
        #expect(HookSenderIdentity.make(environment: elsewhere, files: []) == HookSenderIdentity.make(environment: base, files: []))
    }

    @Test func anotherQueueProfileKeyOrProxyMakesAnother() {
        let identity = HookSenderIdentity.make(environment: base, files: [])
        for (key, value) in [("TIMELINE_QUEUE_URL", "https://sqs.example/1/other"), ("AWS_PROFILE", "prod"),
                             ("AWS_SECRET_ACCESS_KEY", "x"), ("HTTPS_PROXY", "http://proxy:3128"), ("HOME", "/home/b")] {
            var changed = base
            changed[key] = value
            #expect(HookSenderIdentity.make(environment: changed, files: []) != identity, "\(key)")
        }
    }

    @Test func anEditedOrRemovedSettingsFileMakesAnother() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("[profile dev]\n".utf8).write(to: file)
        let first = HookSenderIdentity.make(environment: base, files: [file.path])
        #expect(HookSenderIdentity.make(environment: base, files: [file.path]) == first)
        try Data("[profile dev]\nregion = eu-west-1\n".utf8).write(to: file)
        let edited = HookSenderIdentity.make(environment: base, files: [file.path])
        #expect(edited != first)
        try FileManager.default.removeItem(at: file)
        #expect(HookSenderIdentity.make(environment: base, files: [file.path]) != edited)
    }
}
