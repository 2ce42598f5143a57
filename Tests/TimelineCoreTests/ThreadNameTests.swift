import Foundation
import Synchronization
import Testing
import TimelineCore

@Suite("Thread names")
struct ThreadNameTests {
    /// The name reaches the kernel (what ps, top and perf read from /proc), cut to its 15 bytes.
    @Test func aThreadNamesItselfAsTheKernelShowsIt() throws {
        let seen = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            func record() {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
                seen.withLock { $0 += [ThreadName.ofThisThread(), comm.trimmingCharacters(in: .newlines)] }
            }
            ThreadName.nameThisThread("tl-checkpointer")
            record()
            ThreadName.nameThisThread("tl-search-merger")
            record()
            done.signal()
        }.start()
        try #require(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == ["tl-checkpointer", "tl-checkpointer", "tl-search-merge", "tl-search-merge"])
    }
}
