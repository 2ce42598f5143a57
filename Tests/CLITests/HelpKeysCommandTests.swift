import Foundation
import Testing

/// `timeline help-keys --markdown` prints the keys doc as it is committed, and stays out of the help.
@Suite("timeline help-keys (the binary)")
struct HelpKeysCommandTests {
    @Test func printsTheCommittedKeysDoc() throws {
        let binary = try TimelineBinary()
        let result = try binary.run(["help-keys", "--markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        let committed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/keys.md")
        #expect(result.stdout == (try String(contentsOf: committed, encoding: .utf8)))
    }

    @Test func asksForTheFormatAndIsHiddenFromTheHelp() throws {
        let binary = try TimelineBinary()
        let bare = try binary.run(["help-keys"])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("--markdown"), "\(bare.stderr)")
        #expect(bare.stdout.isEmpty)
        let help = try binary.run(["--help"])
        #expect(help.stdout.contains("hooks") && !help.stdout.contains("help-keys"), "\(help.stdout)")
    }
}
