import Foundation

/// The one rule for taking secrets out of text before it leaves the machine: AWS key ids, bearer and API
/// tokens (well-known prefixes, JWTs), private key blocks, `password=`-style pairs (also `"token": "…"`
/// and `--password …`), and the password of URLs with credentials. A secret becomes `[REDACTED]`; the name
/// around it stays, so the reader still sees what was there.
///
/// Each pattern names the words any match of it must contain (its needles). Text that holds no needle at
/// all is returned as it is, without starting the regular expression engine: a hook runs once per tool
/// call, and most tool events hold nothing that looks like a secret.
public enum SecretRedaction {
    /// What a secret is replaced with.
    public static let marker = "[REDACTED]"

    /// `text` with every secret the patterns know replaced by `marker`.
    public static func redact(_ text: String) -> String {
        guard mayHoldSecret(text) else { return text }
        var out = text
        for pattern in compiled {
            let range = NSRange(out.startIndex..., in: out)
            out = pattern.regex.stringByReplacingMatches(in: out, range: range, withTemplate: pattern.template)
        }
        return out
    }

    /// Whether `text` holds a needle of some pattern (ASCII letters compared without case), or a run of
    /// 40 key characters with upper and lower case and a digit: when not, no pattern can match.
    public static func mayHoldSecret(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] |= 0x20 }
        return bytes.withUnsafeBufferPointer { haystack in
            needles.contains { needle in contains(haystack, needle) }
        } || hasMixedKeyRun(text.utf8)
    }

    private struct Pattern {
        /// An ICU regular expression (`NSRegularExpression`).
        let regex: String
        let template: String
        /// Lower-case words of which every match holds at least one (nil: the 40-character key run).
        let needles: [String]?
    }

    /// Every pattern's needles, as bytes.
    private static let needles: [[UInt8]] = (patterns.flatMap { $0.needles ?? [] } + caseFoldingNeedles).map { Array($0.utf8) }

    /// Letters that case-insensitive patterns (`(?i)`) match as an ASCII letter: long s, Kelvin sign,
    /// dotted and dotless I. Text holding one is always searched.
    private static let caseFoldingNeedles = ["\u{017F}", "\u{212A}", "\u{0130}", "\u{0131}"]

    private static let compiled: [(regex: NSRegularExpression, template: String)] = patterns.map {
        (try! NSRegularExpression(pattern: $0.regex), $0.template)
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count, haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// A run of at least 40 of `[A-Za-z0-9/+]` holding an upper-case letter, a lower-case one and a digit.
    private static func hasMixedKeyRun(_ utf8: String.UTF8View) -> Bool {
        var length = 0
        var upper = false, lower = false, digit = false
        for byte in utf8 {
            switch byte {
            case 0x41...0x5A: upper = true
            case 0x61...0x7A: lower = true
            case 0x30...0x39: digit = true
            case 0x2F, 0x2B: break
            default:
                length = 0
                upper = false; lower = false; digit = false
                continue
            }
            length += 1
            if length >= 40, upper, lower, digit { return true }
        }
        return false
    }

    /// Names whose value is a secret (`DB_PASSWORD=`, `"api_key":`, `client-secret:`).
    private static let secretName =
        "[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|authorization)[A-Za-z0-9_.-]*"
    /// The words of `secretName`, as needles.
    private static let secretNameNeedles = [
        "passw", "passphrase", "secret", "token", "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key",
        "privatekey", "private_key", "private-key", "authorization",
    ]

    private static let patterns: [Pattern] = [
        // Private key blocks, whole (an unterminated one to the end of the text).
        Pattern(regex: "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\\z)", template: marker, needles: ["-----begin"]),
        // URLs with credentials: keep scheme and user, drop the password.
        Pattern(regex: "\\b([a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s:@]+):[^/\\s@]+@", template: "$1:\(marker)@", needles: ["://"]),
        // Authorization headers and bearer tokens.
        Pattern(regex: "(?i)\\b(bearer|basic|token)\\s+[A-Za-z0-9._~+/=-]{8,}", template: "$1 \(marker)", needles: ["bearer", "basic", "token"]),
        // name=value, name: value, "name": "value", --name value.
        Pattern(regex: "(?i)(\"?\\b\(secretName)\"?\\s*[:=]\\s*\"?)(?!(?:bearer|basic|token)\\s|\\[REDACTED\\])([^\\s\"',;&]{3,})", template: "$1\(marker)", needles: secretNameNeedles),
        Pattern(regex: "(?i)(--\(secretName)[ =])([^\\s\"']{3,})", template: "$1\(marker)", needles: secretNameNeedles),
        // AWS access key ids, and well-known API token shapes.
        Pattern(regex: "\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b", template: marker, needles: ["akia", "asia", "abia", "acca"]),
        Pattern(regex: "\\b(?:sk|rk|pk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}", template: marker, needles: ["sk-", "rk-", "pk-"]),
        Pattern(regex: "\\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\\b|\\bgithub_pat_[A-Za-z0-9_]{30,}", template: marker, needles: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"]),
        Pattern(regex: "\\bxox[abposr]-[A-Za-z0-9-]{10,}", template: marker, needles: ["xox"]),
        Pattern(regex: "\\bglpat-[A-Za-z0-9_-]{20,}", template: marker, needles: ["glpat-"]),
        Pattern(regex: "\\bAIza[0-9A-Za-z_-]{35}\\b", template: marker, needles: ["aiza"]),
        Pattern(regex: "\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}", template: marker, needles: ["eyj"]),
        // A 40-character AWS secret access key (mixed case and digits: a lower-case hex digest is left alone).
        Pattern(regex: "(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])", template: marker, needles: nil),
    ]
}
