import Foundation

/// The one rule for taking secrets out of text before it leaves the machine: AWS key ids, bearer and API
/// tokens (well-known prefixes, JWTs), private key blocks, `password=`-style pairs (also `"token": "…"`
/// and `--password …`), and the password of URLs with credentials. A secret becomes `[REDACTED]`; the name
/// around it stays, so the reader still sees what was there.
public enum SecretRedaction {
    /// What a secret is replaced with.
    public static let marker = "[REDACTED]"

    /// `text` with every secret the patterns know replaced by `marker`.
    public static func redact(_ text: String) -> String {
        var out = text
        for pattern in patterns {
            let range = NSRange(out.startIndex..., in: out)
            out = pattern.regex.stringByReplacingMatches(in: out, range: range, withTemplate: pattern.template)
        }
        return out
    }

    private struct Pattern {
        let regex: NSRegularExpression
        let template: String
    }

    /// Names whose value is a secret (`DB_PASSWORD=`, `"api_key":`, `client-secret:`).
    private static let secretName =
        "[A-Za-z0-9_.-]*(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|authorization)[A-Za-z0-9_.-]*"

    private static let patterns: [Pattern] = [
        // Private key blocks, whole (an unterminated one to the end of the text).
        ("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\\z)", marker),
        // URLs with credentials: keep scheme and user, drop the password.
        ("\\b([a-zA-Z][a-zA-Z0-9+.-]*://[^/\\s:@]+):[^/\\s@]+@", "$1:\(marker)@"),
        // Authorization headers and bearer tokens.
        ("(?i)\\b(bearer|basic|token)\\s+[A-Za-z0-9._~+/=-]{8,}", "$1 \(marker)"),
        // name=value, name: value, "name": "value", --name value.
        ("(?i)(\"?\\b\(secretName)\"?\\s*[:=]\\s*\"?)(?!(?:bearer|basic|token)\\s|\\[REDACTED\\])([^\\s\"',;&]{3,})", "$1\(marker)"),
        ("(?i)(--\(secretName)[ =])([^\\s\"']{3,})", "$1\(marker)"),
        // AWS access key ids, and well-known API token shapes.
        ("\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b", marker),
        ("\\b(?:sk|rk|pk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}", marker),
        ("\\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}\\b|\\bgithub_pat_[A-Za-z0-9_]{30,}", marker),
        ("\\bxox[abposr]-[A-Za-z0-9-]{10,}", marker),
        ("\\bglpat-[A-Za-z0-9_-]{20,}", marker),
        ("\\bAIza[0-9A-Za-z_-]{35}\\b", marker),
        ("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}", marker),
        // A 40-character AWS secret access key (mixed case and digits: a lower-case hex digest is left alone).
        ("(?<![A-Za-z0-9/+=])(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[a-z])(?=[A-Za-z0-9/+]{0,39}[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])", marker),
    ].map { Pattern(regex: try! NSRegularExpression(pattern: $0.0), template: $0.1) }
}
