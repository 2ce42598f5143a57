/// Splits a command line into argv for commands timeline runs without a shell: a profile's
/// `credential_process` and `--notify-command`. One rule for both, the one botocore uses for
/// `credential_process` on POSIX (Python's `shlex.split`), so a line that works with the AWS CLI works here:
/// space, tab, CR and LF separate words; `'…'` keeps everything literally; `"…"` keeps everything except
/// that a backslash escapes `"` or `\` (so `"\$x"` stays `\$x`: nothing is expanded, so `$` needs no
/// escape); outside quotes a backslash makes the next character literal; quoted pieces join adjacent text
/// (`a"b c"` is one word `ab c`); `""` is an empty word. No expansion of any kind: `$`, `;`, `|`, `*`,
/// `#` are plain characters. A blank line gives no words; callers say why that is an error for them.
public enum CommandLineWords {
    public struct SplitError: Error, Equatable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    public static func split(_ line: String) throws(SplitError) -> [String] {
        enum State { case between, word, single, double }
        var words: [String] = []
        var current = ""
        var state = State.between
        var iterator = line.unicodeScalars.makeIterator()
        while let character = iterator.next() {
            switch state {
            case .between, .word:
                if character == " " || character == "\t" || character == "\n" || character == "\r" {
                    if state == .word { words.append(current); current = "" }
                    state = .between
                } else if character == "'" {
                    state = .single
                } else if character == "\"" {
                    state = .double
                } else if character == "\\" {
                    guard let next = iterator.next() else { throw SplitError(description: "the command line ends with a lone backslash") }
                    current.unicodeScalars.append(next)
                    state = .word
                } else {
                    current.unicodeScalars.append(character)
                    state = .word
                }
            case .single:
                if character == "'" { state = .word } else { current.unicodeScalars.append(character) }
            case .double:
                if character == "\"" {
                    state = .word
                } else if character == "\\" {
                    guard let next = iterator.next() else { throw SplitError(description: "the command line has an unclosed double quote") }
                    if next != "\"" && next != "\\" { current.unicodeScalars.append("\\" as Unicode.Scalar) }
                    current.unicodeScalars.append(next)
                } else {
                    current.unicodeScalars.append(character)
                }
            }
        }
        switch state {
        case .single: throw SplitError(description: "the command line has an unclosed single quote")
        case .double: throw SplitError(description: "the command line has an unclosed double quote")
        case .word: words.append(current)
        case .between: break
        }
        return words
    }
}
