import Foundation
import Testing
import TimelineCore
@testable import TimelineUI

@Suite("Robustness")
struct RobustnessTests {
    @Test func tinyTerminalsRenderWithoutTrapping() {
        for width in 1...24 {
            for height in 1...5 {
                var s = loadedState(sampleRows(), width: width, height: height)
                let plain = render(s, width: width, height: height)
                #expect(plain.width == width && plain.height == height)
                _ = reduce(&s, .key(.enter))
                _ = render(s, width: width, height: height)
                _ = reduce(&s, .key(.char("?")))
                _ = render(s, width: width, height: height)
                _ = reduce(&s, .key(.char("x")))
                _ = reduce(&s, .key(.char("/")))
                _ = reduce(&s, .key(.char("部")))
                _ = render(s, width: width, height: height)
            }
        }
    }
}
