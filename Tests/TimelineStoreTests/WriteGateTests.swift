import Dispatch
import Foundation
import Synchronization
import Testing
@testable import TimelineStore

/// The write gate: one writer of a file at a time in this process, and the background jobs' `whenIdle`,
/// which runs only after a quiet spell and never waits for a write under way.
@Suite("Write gate")
struct WriteGateTests {
    /// A gate of its own (gates are kept per path).
    static func gate() -> WriteGate { WriteGate.shared(path: "/write-gate-test/\(UUID().uuidString)") }

    @Test func whenIdleRunsOnceTheQuietSpellHasPassed() {
        let gate = Self.gate()
        gate.withWriteLock {}
        #expect(gate.whenIdle(for: .seconds(3600)) { 1 } == nil, "a write ended within the quiet spell")
        #expect(gate.whenIdle(for: .zero) { 2 } == 2)
    }

    @Test func whenIdleDoesNotWaitForAWriteUnderWay() {
        let gate = Self.gate()
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        Thread {
            gate.withWriteLock {
                inside.signal()
                release.wait()
            }
            writerDone.signal()
        }.start()
        inside.wait()

        // Asked from another thread, so a gate that waited would show as a timeout here, not as a hang.
        let answered = DispatchSemaphore(value: 0)
        let ran = Mutex(false), answer = Mutex<Int?>(-1)
        Thread {
            let result = gate.whenIdle(for: .zero) { ran.withLock { $0 = true }; return 1 }
            answer.withLock { $0 = result }
            answered.signal()
        }.start()
        let returned = answered.wait(timeout: .now() + 10) == .success
        release.signal()
        writerDone.wait()
        if !returned { answered.wait() }

        #expect(returned, "whenIdle waited for the write under way")
        #expect(answer.withLock { $0 } == nil)
        #expect(!ran.withLock { $0 })
        // Once the write is over (and no quiet spell is asked for), the job runs.
        #expect(gate.whenIdle(for: .zero) { 3 } == 3)
    }
}
