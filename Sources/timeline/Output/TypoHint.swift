import ArgumentParser
import Foundation
import TimelineCore

/// "Did you mean …?" under a parse error that names an unknown subcommand or option.
enum TypoHint {
    /// The hint line for `message` (the parser's error text) given the command line, nil when there is none.
    static func hint(for message: String, arguments: [String]) -> String? {
        guard !message.contains("Did you mean"), let word = unknownWord(in: message) else { return nil }
        let subcommands = TimelineCommand.configuration.subcommands
        let names: [String]
        if word.hasPrefix("-") {
            let command = subcommands.first { $0.configuration.commandName == arguments.first } ?? TimelineCommand.self
            names = optionNames(inHelp: TimelineCommand.helpMessage(for: command, columns: 1_000))
        } else {
            names = subcommands.compactMap { $0.configuration.commandName }
        }
        return ClosestWord.suggestion(for: word, among: names).map { "Did you mean '\($0)'?" }
    }

    /// The word the parser could not place: `Unexpected argument 'lsit'`, `2 unexpected arguments: 'hsitory',
    /// 'x'`, `Unknown option '--limt'`, or the query words' `Unknown option --limt=3 (…` (an `=value` dropped).
    static func unknownWord(in message: String) -> String? {
        let lower = message.lowercased()
        if let start = lower.range(of: "unexpected argument"),
           let open = message[start.upperBound...].firstIndex(of: "'"),
           let close = message[message.index(after: open)...].firstIndex(of: "'") {
            return String(message[message.index(after: open)..<close])
        }
        if let start = message.range(of: "Unknown option ") {
            let word = message[start.upperBound...].drop { $0 == "'" }
                .prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            return word.hasPrefix("-") ? String(word) : nil
        }
        return nil
    }

    /// Every `--long-option` a help text names.
    static func optionNames(inHelp help: String) -> [String] {
        var names: Set<String> = []
        var rest = Substring(help)
        while let start = rest.range(of: "--") {
            let word = rest[start.lowerBound...].prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if word.count > 2, !word.hasPrefix("---") { names.insert(String(word)) }
            rest = rest[start.upperBound...]
        }
        return names.sorted()
    }
}
