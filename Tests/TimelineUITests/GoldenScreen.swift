import Foundation
import Testing
@testable import TimelineUI

/// Golden screen files: the text of the screen, a parallel style mask (one letter per column) and its
/// legend. A missing golden is recorded and the test fails; `TIMELINE_RECORD_GOLDENS=1` re-records.
enum GoldenScreen {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    /// Renders `screen` to the golden format.
    static func text(of screen: Screen) -> String {
        var legend: [Style: Character] = [.plain: "."]
        var order: [Style] = [.plain]
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var text: [String] = []
        var mask: [String] = []
        for y in 0..<screen.height {
            var line = ""
            var m = ""
            for x in 0..<screen.width {
                let cell = screen[x, y]
                if cell.isContinuation { continue }
                line.append(cell.character)
                if legend[cell.style] == nil {
                    legend[cell.style] = letters[min(order.count - 1, letters.count - 1)]
                    order.append(cell.style)
                }
                m.append(String(repeating: legend[cell.style]!, count: Int(cell.width)))
            }
            text.append("|" + line + "|")
            mask.append("|" + m + "|")
        }
        let legendLines = order.map { "\(legend[$0]!) = \($0.legend)" }
        return (["size \(screen.width)x\(screen.height)"] + text + ["-- styles"] + mask + ["-- legend"] + legendLines)
            .joined(separator: "\n") + "\n"
    }

    /// Compares with `Goldens/<name>.txt`.
    static func check(_ screen: Screen, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = text(of: screen)
        let record = ProcessInfo.processInfo.environment["TIMELINE_RECORD_GOLDENS"] == "1"
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("golden \(name).txt was missing: recorded it; review it and run again", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            if record { try? actual.write(to: url, atomically: true, encoding: .utf8) }
            let diff = zip(expected.split(separator: "\n", omittingEmptySubsequences: false),
                           actual.split(separator: "\n", omittingEmptySubsequences: false)).enumerated()
                .first { $0.element.0 != $0.element.1 }
                .map { "first difference at line \($0.offset + 1):\n  expected: \($0.element.0)\n  actual:   \($0.element.1)" } ?? "lengths differ"
            Issue.record("screen differs from golden \(name).txt\(record ? " (re-recorded)" : "")\n\(diff)", sourceLocation: sourceLocation)
        }
    }
}
