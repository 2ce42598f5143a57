import Testing
@testable import TimelineStore

@Suite("A term looked for by its rarest byte")
struct AnchoredNeedleTests {
    /// Whether `term` lies inside one of `columns` (nil: NULL), as a waiting row's buffer holds them.
    static func occurs(_ term: String, in columns: [String?]) -> Bool {
        AnchoredNeedle(lowered: Array(term.utf8)).occurs(in: WaitingRowTexts.row(seq: 1, columns: columns))
    }

    @Test func theRarestByteIsLookedForFirst() {
        #expect(AnchoredNeedle(lowered: Array("deploy".utf8)).anchor == 2)
        #expect(AnchoredNeedle(lowered: Array("zebra".utf8)).anchor == 0)
        #expect(AnchoredNeedle(lowered: Array("a b".utf8)).anchor == 2)
    }

    @Test func aHitCountsOnlyInsideOneColumn() {
        #expect(Self.occurs("ab", in: ["abc", "ab"]))
        #expect(!Self.occurs("ca", in: ["abc", "ab"]), "across two columns")
        #expect(!Self.occurs("cab", in: ["abc", "ab"]))
        // The first candidate crosses a boundary, a later one does not.
        #expect(Self.occurs("qa", in: ["xq", "ay", "zqa"]))
        #expect(Self.occurs("qa", in: ["q", nil, "a", "qa"]))
        #expect(!Self.occurs("qa", in: ["q", nil, "a"]))
        #expect(Self.occurs("", in: ["", nil]))
        #expect(!Self.occurs("", in: [nil, nil]))
        #expect(!Self.occurs("longer", in: ["long"]))
        // The anchor is not the first byte: candidates near both ends of the buffer.
        #expect(Self.occurs("deploy", in: ["deploy"]))
        #expect(Self.occurs("deploy", in: ["", "x deploy"]))
        #expect(!Self.occurs("deploy", in: ["eploy", "deplo"]))
    }
}
