import Foundation
import StrictJSON
import TestSupport
import Testing
import TimelineCore

/// One splitter for `credential_process` and `--notify-command`: Python's `shlex.split`, as botocore uses it.
@Suite struct CommandLineWordsTests {
    @Test func splittingMatchesPythonShlexAsBotocoreUsesIt() throws {
        let lines = [
            "aws configure export-credentials --profile dev --format process",
            #"/opt/my tool/bin/helper --name "a b" 'c d' e\ f"#,
            #"helper "x\"y\\z\q" 'single \" stays' a"b"c"#,
            "helper ''  \"\" tail\t tabs",
            "helper a#b ; $(id) `id` | cat > out",
            "  leading and trailing  ",
            "unicode 日本 \"ü ö\"",
            // Where the --notify-command splitter used to differ: `\$` and `\`` inside double quotes keep
            // their backslash, CR separates words, an escaped newline is a literal newline, a blank line is no words.
            #"curl -d @- 'https://ntfy.sh/my topic' "a \"b\" \$HOME \`x\`" c\ d"#,
            "a\rb \"\" \"\"x",
            "a\\\nb",
            "   ",
            "",
        ]
        let script = "import json, shlex, sys; print(json.dumps({'words': [shlex.split(line) for line in json.load(sys.stdin)]}))"
        let output = try PythonRunner.run(script, stdin: Data(try #require(JSONWriter.encode(lines))))
        let answer = try #require(JSONReader.object(from: Array(output)))
        let expected = try #require(answer["words"] as? [Any]).map { try #require($0 as? [String]) }
        try #require(expected.count == lines.count)
        for (line, words) in zip(lines, expected) {
            #expect(try CommandLineWords.split(line) == words, "\(line)")
        }
    }

    @Test func unclosedQuotesAndALoneBackslashAreErrors() {
        for line in ["helper 'open", "helper \"open", "helper \\", "a \"b\\"] {
            #expect(throws: CommandLineWords.SplitError.self, "\(line)") { try CommandLineWords.split(line) }
        }
        #expect(throws: CommandLineWords.SplitError(description: "the command line has an unclosed single quote")) {
            try CommandLineWords.split("a 'b")
        }
    }

    @Test func shellSyntaxStaysLiteral() throws {
        #expect(try CommandLineWords.split("echo $(rm -rf /) ; | > x") == ["echo", "$(rm", "-rf", "/)", ";", "|", ">", "x"])
    }
}
