import ArgumentParser
import TimelineUI

/// `timeline help-keys --markdown` (hidden): prints the TUI's keys as Markdown, the text of `docs/keys.md`.
struct HelpKeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help-keys",
        abstract: "Print the TUI's keys as Markdown (docs/keys.md).",
        shouldDisplay: false
    )

    @Flag(help: "Markdown, as docs/keys.md holds it (the only format).")
    var markdown = false

    func validate() throws {
        guard markdown else { throw ValidationError("say --markdown: the keys are printed as Markdown only") }
    }

    func run() throws {
        print(KeyBindings.markdown(), terminator: "")
    }
}
