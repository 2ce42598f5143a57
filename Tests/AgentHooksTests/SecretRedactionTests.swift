import AgentHooks
import Foundation
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
}
