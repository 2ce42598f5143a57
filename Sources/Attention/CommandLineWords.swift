/// Splits a `--notify-command` string into argv the way a POSIX shell splits words (single quotes,
/// double quotes with `\` escapes, backslash outside quotes), without ever running a shell: no
/// variables, globs, pipes or substitutions — those characters stay literal.
public enum CommandLineWords {
    public struct SplitError: Error, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    public static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var chars = Array(line).makeIterator()
        while let c = chars.next() {
            switch c {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                while true {
                    guard let q = chars.next() else { throw SplitError(message: "unterminated ' in command") }
                    if q == "'" { break }
                    current.append(q)
                }
            case "\"":
                inWord = true
                while true {
                    guard let q = chars.next() else { throw SplitError(message: "unterminated \" in command") }
                    if q == "\"" { break }
                    if q == "\\" {
                        guard let n = chars.next() else { throw SplitError(message: "unterminated \" in command") }
                        if !"\"\\$`".contains(n) { current.append("\\") }
                        current.append(n)
                    } else {
                        current.append(q)
                    }
                }
            case "\\":
                inWord = true
                guard let n = chars.next() else { throw SplitError(message: "command ends with a lone \\") }
                current.append(n)
            default:
                inWord = true
                current.append(c)
            }
        }
        if inWord { words.append(current) }
        guard !words.isEmpty else { throw SplitError(message: "the command is empty") }
        return words
    }
}
