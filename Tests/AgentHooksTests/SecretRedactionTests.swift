import AgentHooks
import Foundation
import SharedRules
import Testing

@Suite("Secret redaction")
struct SecretRedactionTests {
    struct Corpus: Decodable {
        struct Case: Decodable {
            var text: String
            var secret: String
            var keeps: String?
        }
        var redacted: [Case]
        var unchanged: [String]
    }

    let corpus: Corpus = try! JSONDecoder().decode(Corpus.self, from: FixtureFiles.data("secrets-corpus.json"))

    @Test func everySecretInTheCorpusIsRedacted() {
        #expect(corpus.redacted.count >= 20)
        for item in corpus.redacted {
            let out = SecretRedaction.redact(item.text)
            #expect(!out.contains(item.secret), "\(item.text) -> \(out)")
            #expect(out.contains(SecretRedaction.marker), "\(item.text) -> \(out)")
            if let keeps = item.keeps { #expect(out.contains(keeps), "\(item.text) -> \(out)") }
        }
    }

    @Test func ordinaryTextIsLeftAlone() {
        for text in corpus.unchanged {
            #expect(SecretRedaction.redact(text) == text)
        }
    }

    @Test func everySecretInTheCorpusHoldsANeedle() {
        for item in corpus.redacted {
            #expect(SecretRedaction.mayHoldSecret(item.text), "\(item.text)")
        }
    }

    @Test func textWithoutNeedlesIsNotSearched() {
        #expect(!SecretRedaction.mayHoldSecret("Bash: npm test\nTests: 1 failed, 41 passed, 42 total"))
        // A git commit id: 40 characters, but no upper case.
        #expect(!SecretRedaction.mayHoldSecret("commit 3f786850e387550fdab836ed7e6dc881de23001b"))
    }

    @Test func lettersThatFoldToASCIIAreSearched() {
        // U+212A KELVIN SIGN matches k in a case-insensitive pattern.
        let text = "API_\u{212A}EY=hunter2hunter2"
        #expect(SecretRedaction.mayHoldSecret(text))
        #expect(!SecretRedaction.redact(text).contains("hunter2hunter2"))
    }
}
