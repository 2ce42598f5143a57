import CNCursesW
import Foundation
import Testing
@testable import Terminal

/// Emoji clusters reach ncurses as scalars whose libc widths add up to the cell's width, never more.
@Suite("Cluster drawing")
struct ClusterDrawingTests {
    init() { setlocale(LC_ALL, "C.UTF-8") }

    static func wcwidth(_ scalar: UInt32) -> Int { Int(tl_wcwidth(wchar_t(bitPattern: scalar))) }

    static func plan(_ text: Character, width: Int) -> ClusterDrawing.Plan {
        ClusterDrawing.plan(text.unicodeScalars.map(\.value), width: width, wcwidth: wcwidth)
    }

    /// Columns the terminal's cursor advances: the pieces (as libc measures) plus the blanks.
    static func advance(_ plan: ClusterDrawing.Plan) -> Int {
        plan.pieces.reduce(0) { $0 + wcwidth($1[0]) } + plan.blanks
    }

    @Test func zwjFamilyIsItsFirstPersonAtWidthTwo() {
        let p = Self.plan("👨‍👩‍👧‍👦", width: 2)
        #expect(p == .init(pieces: [[0x1F468]], blanks: 0))
        #expect(!p.pieces.joined().contains(ClusterDrawing.zeroWidthJoiner))
    }

    @Test func skinToneModifierIsDropped() {
        #expect(Self.plan("👍🏽", width: 2) == .init(pieces: [[0x1F44D]], blanks: 0))
    }

    @Test func everyClusterAdvancesExactlyItsCellWidth() {
        let clusters: [(Character, Int)] = [
            ("👨‍👩‍👧‍👦", 2), ("👍🏽", 2), ("🇯🇵", 2), ("❤️", 2), ("🏳️‍🌈", 2), ("é", 1), ("e\u{301}", 1), ("部", 2),
            ("🧑🏿‍🚀", 2), ("a", 1), ("\u{1F468}\u{200D}\u{1F4BB}", 2),
        ]
        for (cluster, width) in clusters {
            let p = Self.plan(cluster, width: width)
            #expect(Self.advance(p) == width, "\(cluster): \(p)")
            #expect(p.pieces.allSatisfy { Self.wcwidth($0[0]) > 0 }, "\(cluster)")
        }
    }

    @Test func combiningMarksStayWithTheirBase() {
        #expect(Self.plan("e\u{301}", width: 1) == .init(pieces: [[0x65, 0x301]], blanks: 0))
    }
}
