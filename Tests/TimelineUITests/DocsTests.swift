import Foundation
import Testing
@testable import TimelineUI

/// The documents that are made from the code stay equal to it: the keys doc, the README's screen, the module table.
@Suite("Docs match the code")
struct DocsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func keysDocIsTheGeneratedOne() throws {
        let doc = try Self.read("docs/keys.md").split(separator: "\n", omittingEmptySubsequences: false)
        let generated = KeyBindings.markdown().split(separator: "\n", omittingEmptySubsequences: false)
        guard doc != generated else { return }
        let common = min(doc.count, generated.count)
        let line = (0..<common).first { doc[$0] != generated[$0] } ?? common
        Issue.record("""
            docs/keys.md differs from KeyBindings at line \(line + 1): run `\(KeyBindings.markdownCommand)` (make docs)
              docs/keys.md: \(line < doc.count ? String(doc[line]) : "(end of file)")
              generated:    \(line < generated.count ? String(generated[line]) : "(end of file)")
            """)
    }

    @Test func keysDocListsEveryBindingWithItsFullText() {
        let doc = KeyBindings.markdown()
        for binding in KeyBindings.columns.flatMap({ $0 }).flatMap(\.keys) {
            let keys = binding.keys.split(separator: " ").map { "`\($0)`" }.joined(separator: " ")
            #expect(doc.contains("| \(keys) | \((binding.detail ?? binding.summary).replacingOccurrences(of: "|", with: "\\|")) |"),
                    "no row for \(binding.keys)")
        }
        #expect(doc.contains("| `'` | jump to the next marked task (wraps around) |"))
    }

    @Test func markdownCellsEscapeTheirBars() {
        let doc = KeyBindings.markdown()
        for line in doc.split(separator: "\n") where line.hasPrefix("| ") {
            let unescaped = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect(unescaped == 3, "a table row with \(unescaped) cell borders: \(line)")
        }
    }

    /// The README's screen (after `<!-- screen: NAME -->`) is the golden screen NAME, as `render` draws it.
    @Test func readmeScreenIsAGolden() throws {
        let readme = try Self.read("README.md")
        let marker = try #require(readme.range(of: #"<!-- screen: ([0-9a-z-]+) -->"#, options: .regularExpression))
        let name = String(readme[marker]).dropFirst("<!-- screen: ".count).dropLast(" -->".count)
        let after = readme[marker.upperBound...]
        let open = try #require(after.range(of: "```text\n"))
        let close = try #require(after.range(of: "\n```", range: open.upperBound..<after.endIndex))
        let shown = after[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        let golden = try String(contentsOf: GoldenScreen.directory.appendingPathComponent("\(name).txt"), encoding: .utf8)
        let screen = golden.split(separator: "\n").dropFirst().prefix { $0 != "-- styles" }
            .map { String($0.dropFirst().dropLast()).replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
        #expect(shown == Array(screen), "README's screen differs from Goldens/\(name).txt")
    }

    /// Every target of Package.swift has a row in the architecture doc's module table.
    @Test func architectureTableNamesEveryTarget() throws {
        let package = try Self.read("Package.swift")
        let doc = try Self.read("docs/architecture.md")
        let declared = try Regex(#"\.(?:target|systemLibrary|executableTarget)\(\s*name: "([A-Za-z0-9]+)""#)
        let targets = package.matches(of: declared).map { String($0.output[1].substring ?? "") }
        #expect(targets.count > 10)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
        for target in targets {
            #expect(rows.contains { $0.components(separatedBy: "|")[1].contains("`\(target)`") },
                    "docs/architecture.md has no module row for \(target)")
        }
    }

    /// Every relative link of the README and the docs reaches a file, and a heading there when it names one.
    @Test func relativeLinksReachTheirFileAndHeading() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        #expect(docs.count >= 10)
        let link = try Regex(#"\]\(([^)#\s]*)(?:#([^)\s]+))?\)"#)
        for page in ["README.md"] + docs {
            let text = try Self.read(page)
            let folder = (page as NSString).deletingLastPathComponent
            for match in text.matches(of: link) {
                let path = String(match.output[1].substring ?? "")
                guard !path.hasPrefix("http") else { continue }
                let target = path.isEmpty ? page : ((folder as NSString).appendingPathComponent(path) as NSString).standardizingPath
                guard FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(target).path) else {
                    Issue.record("\(page) links to \(path), which does not exist"); continue
                }
                guard let anchor = match.output[2].substring.map(String.init), target.hasSuffix(".md") else { continue }
                #expect(Self.headingAnchors(try Self.read(target)).contains(anchor), "\(page) links to \(target)#\(anchor): no such heading")
            }
        }
    }

    /// GitHub's anchors for a page's headings: lowercased, punctuation dropped, spaces as dashes.
    static func headingAnchors(_ markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inFence = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            anchors.insert(String(title.compactMap { c -> Character? in
                c == " " ? "-" : (c.isLetter || c.isNumber || c == "-" || c == "_") ? c : nil
            }))
        }
        return anchors
    }
}
