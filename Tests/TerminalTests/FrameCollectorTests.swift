import Foundation
import Testing
@testable import Terminal

@Suite("Frame collector")
struct FrameCollectorTests {
    /// Frames are collected in memory (no disk), in a file a started program does not inherit, that holds
    /// what is written to it.
    @Test func framesGoToAMemoryFileClosedOnExec() throws {
        let fd = try #require(FrameCollector.frameFile())
        defer { close(fd) }
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        #expect(target.hasPrefix("/memfd:timeline-frame"), "a memory file, not \(target)")
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        let frame = Array("\u{1B}[H frame".utf8)
        #expect(frame.withUnsafeBytes { pwrite(fd, $0.baseAddress, frame.count, 0) } == frame.count)
        var back = [UInt8](repeating: 0, count: frame.count)
        #expect(back.withUnsafeMutableBytes { pread(fd, $0.baseAddress, frame.count, 0) } == frame.count)
        #expect(back == frame)
    }
}
