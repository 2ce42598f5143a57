import Foundation
import TimelineCore
import TimelineRuntime
import TimelineStore
import TimelineUI

/// `timeline tui` figures with 1,000 and 1,000,000 stored events: time to first frame, CPU per scroll
/// step and per search keystroke, and peak RSS. Each size is measured in a child process (this same
/// executable, re-entered through `TIMELINE_TUI_BENCH_CHILD`) so RSS reflects the viewer alone.
/// Reuses databases given by `TIMELINE_TUI_BENCH_DB_1K` / `TIMELINE_TUI_BENCH_DB_1M`; otherwise builds
/// them with the store's ingest in a temporary directory. Prints figures; asserts nothing.
func runTUIBench() {
    let env = ProcessInfo.processInfo.environment
    if let child = env["TIMELINE_TUI_BENCH_CHILD"] {
        TUIBenchMeasure.run(databasePath: child)
        exit(0)
    }
    print("== tui bench (targets: first frame ≤ 100 ms, scroll step ≤ 2 ms, search keystroke ≤ 30 ms)")
    let temp = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-tui-bench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
    let keep = env["TIMELINE_TUI_BENCH_KEEP"] == "1"
    defer { if !keep { try? FileManager.default.removeItem(atPath: temp) } else { print("kept databases in \(temp)") } }
    // TIMELINE_TUI_BENCH_SIZES=1000 limits a quick run to the small database.
    let sizes = env["TIMELINE_TUI_BENCH_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 1_000_000]
    for (events, key) in [(1_000, "TIMELINE_TUI_BENCH_DB_1K"), (1_000_000, "TIMELINE_TUI_BENCH_DB_1M")]
        where sizes.contains(events) {
        let path: String
        if let given = env[key], FileManager.default.fileExists(atPath: given) {
            path = given
        } else {
            path = temp + "/tui-\(events).db"
            let started = Date()
            do { try TUIBenchData.build(path: path, events: events) } catch {
                print("tui bench: cannot build \(events) events: \(error)")
                continue
            }
            print(String(format: "built %@ events in %.1f s", tuiBenchThousands(events), Date().timeIntervalSince(started)))
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.environment = env.merging(["TIMELINE_TUI_BENCH_CHILD": path]) { $1 }
        do {
            try child.run()
            child.waitUntilExit()
        } catch {
            print("tui bench: cannot start the measuring process: \(error)")
        }
    }
}

/// Synthetic agent traffic: two events per task, a mix of statuses, agents and categories.
enum TUIBenchData {
    static func build(path: String, events: Int) throws {
        let store = try TimelineStore(path: path)
        let statuses = Status.allCases
        let categories = ["deploy", "code-review", "ci", "infra", "search", "security"]
        let words = ["api", "gateway", "store", "index", "review", "migrate", "build", "release", "audit", "cache"]
        let base: Int64 = 1_795_000_000_000_000
        var batch: [IngestItem] = []
        batch.reserveCapacity(10_000)
        for i in 0..<events {
            let task = i / 2
            let title = "\(words[i % words.count]) \(words[(i / 7) % words.count]) step \(i)"
            let e = Event(id: "bench-\(i)", agentID: "agent-\(task % 50)", taskID: "task-\(task)", title: title,
                          body: "details for event \(i): \(words[(i / 3) % words.count]) finished",
                          status: statuses[(i * 3 + task * 7) % statuses.count], category: categories[task % categories.count],
                          timestampMicros: base + Int64(i) * 1_000_000, progress: i % 4 == 0 ? Double(i % 100) : nil,
                          rawJSON: "{}")
            batch.append(.event(e, messageID: nil))
            if batch.count == 10_000 {
                _ = try store.ingest(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        if !batch.isEmpty { _ = try store.ingest(batch) }
        // As `timeline import` leaves a file: the index merged and the WAL empty (no merging left for
        // this process to do in the background while the measuring child reads).
        try store.flushSearchIndex()
    }
}

/// The measurements for one database (run in the child process).
enum TUIBenchMeasure {
    static func run(databasePath path: String) {
        let width = 120, height = 40
        let clock0 = now()
        let cpu0 = cpuSeconds()
        let controller = TimelineController(state: AppState(width: width, height: height, nowMicros: 1_796_000_000_000_000),
                                            makeReader: { try TimelineStore(path: path, readOnly: true) })
        controller.start()
        controller.settleFrame()
        _ = render(controller.state, width: width, height: height)
        let firstFrame = now() - clock0
        let rssFirstFrame = peakRSSMiB()
        settleOrExit(controller)
        let countsReady = now() - clock0
        let rssCounts = peakRSSMiB()
        let total = controller.state.counts.total ?? 0
        _ = cpu0

        // Scroll: j steps (with the window refills they cause), plus page steps. Every measured step moves
        // the selection: at an end the walk turns back (k / PgUp), so a small history (500 tasks) does the
        // same work per step as a large one instead of timing no-op keys at the bottom.
        let (scrollCPU, scrollWall) = measureSteps(controller, keys: (.char("j"), .char("k")), steps: 2_000,
                                                   width: width, height: height)
        let (pageCPU, _) = measureSteps(controller, keys: (.pageDown, .pageUp), steps: 300, width: width, height: height)
        settleOrExit(controller)
        let rssBeforeSearch = peakRSSMiB()
        var cpu = cpuSeconds()
        var wall = now()
        let verbose = ProcessInfo.processInfo.environment["TIMELINE_TUI_BENCH_VERBOSE"] == "1"

        // Search: type queries one key at a time (filter mode). A keystroke's frame needs only the
        // window; the match counts follow on the slow lane (superseded by the next keystroke).
        controller.send(.key(.char("f")))
        settleOrExit(controller)
        var keystrokes: [Double] = []
        var countLatencies: [Double] = []
        var exactLatencies: [Double] = []
        cpu = cpuSeconds()
        for query in ["gateway", "step 99", "status:error cache", "agent:agent-7 deploy"] {
            controller.send(.key(.char("/")))
            for c in query {
                wall = now()
                controller.send(.key(.char(c)))
                controller.settleFrame()
                _ = render(controller.state, width: width, height: height)
                keystrokes.append(now() - wall)
                if verbose && keystrokes.last! > 0.030 {
                    print(String(format: "  slow keystroke: %.1f ms for \"%@\"", keystrokes.last! * 1000,
                                 controller.state.search.text))
                }
            }
            // Settled: the first counts for the final query are on screen (its first screenful's, or capped
            // at 1,000+); the exact counts that may follow are timed on their own.
            wall = now()
            waitForCounts(controller)
            countLatencies.append(now() - wall)
            settleOrExit(controller)
            exactLatencies.append(now() - wall)
            if verbose {
                print(String(format: "  counts for \"%@\": %.1f ms, exact %.1f ms (%@ matches)", query,
                             countLatencies.last! * 1000, exactLatencies.last! * 1000,
                             controller.state.search.matchCount.map(tuiBenchThousands) ?? "no"))
            }
            controller.send(.key(.escape))
            settleOrExit(controller)
        }
        let searchCPU = (cpuSeconds() - cpu) / Double(keystrokes.count)
        let sorted = keystrokes.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        let worst = sorted.last ?? 0
        let countsAfter = countLatencies.max() ?? 0
        let exactAfter = exactLatencies.max() ?? 0

        let rssMiB = peakRSSMiB()
        let (fileMiB, anonMiB) = (statusMiB("RssFile:"), statusMiB("RssAnon:"))
        let events = (try? TimelineStore(path: path, readOnly: true).stats().events) ?? 0
        print(String(format: """
            tui %@ events (%@ tasks):
              first frame            %8.1f ms   (header counts ready after %.1f ms)
              scroll step (j)        %8.3f ms CPU, %.3f ms wall
              page step (PgDn)       %8.3f ms CPU
              search keystroke frame %8.2f ms median wall, %.2f ms worst; %.2f ms CPU per keystroke incl. counts
              match counts settle    %8.1f ms after the last keystroke (worst query; exact counts past 10,000 after %.1f ms)
              peak RSS               %8.1f MiB   (%.1f after the first frame, %.1f after the counts, %.1f before the searches)
              RSS at the end         %8.1f MiB mapped files (code of the binary and libraries) + %.1f MiB anonymous
            """, tuiBenchThousands(events), tuiBenchThousands(total), firstFrame * 1000, countsReady * 1000,
                     scrollCPU * 1000, scrollWall * 1000, pageCPU * 1000, median * 1000, worst * 1000,
                     searchCPU * 1000, countsAfter * 1000, exactAfter * 1000, rssMiB, rssFirstFrame, rssCounts, rssBeforeSearch,
                     fileMiB, anonMiB))
        if verbose { printLargestMappings() }
    }

    /// The mappings holding the most resident memory now (`/proc/self/smaps`), for a closer look at RSS.
    static func printLargestMappings(count: Int = 12) {
        // Read to the end: /proc files report a size of 0.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return }
        let smaps = String(decoding: data, as: UTF8.self)
        var residentKiB: [String: Int] = [:]
        var name = ""
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.first?.contains("-") == true, fields.count >= 5 {
                name = fields.count >= 6 ? String(fields[5]) : "[anonymous]"
            } else if fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                residentKiB[name, default: 0] += kib
            }
        }
        for (mapping, kib) in residentKiB.sorted(by: { $0.value > $1.value }).prefix(count) {
            print(String(format: "    %8.1f MiB  %@", Double(kib) / 1024, mapping))
        }
    }

    /// CPU and wall seconds per step of `steps` key presses that each moved the selection, walking
    /// with `keys.forward` and turning to `keys.back` (and again) whenever a key did not move it.
    /// A bench that cannot settle measures nothing: say so and stop.
    static func settleOrExit(_ controller: TimelineController) {
        do { try controller.settle(timeout: 120) } catch { fatalError("TUI bench: \(error)") }
    }

    /// Waits until the counts of the query on screen have arrived (capped or exact).
    static func waitForCounts(_ controller: TimelineController) {
        let deadline = now() + 120
        while controller.state.counts.generation != controller.state.generation {
            if !controller.drain() { usleep(200) }
            if now() > deadline { fatalError("TUI bench: the counts never arrived") }
        }
    }

    static func measureSteps(_ controller: TimelineController, keys: (forward: Key, back: Key), steps: Int,
                             width: Int, height: Int) -> (cpu: Double, wall: Double) {
        let cpu = cpuSeconds(), wall = now()
        var key = keys.forward
        var moved = 0, attempts = 0
        while moved < steps && attempts < 2 * steps {
            attempts += 1
            let before = controller.state.selectedPosition
            controller.send(.key(key))
            controller.settleFrame()
            _ = render(controller.state, width: width, height: height)
            if controller.state.selectedPosition == before {
                key = key == keys.forward ? keys.back : keys.forward
            } else {
                moved += 1
            }
        }
        let n = Double(max(1, moved))
        return ((cpuSeconds() - cpu) / n, (now() - wall) / n)
    }

    /// Peak RSS of this process image: VmHWM (ru_maxrss survives exec, so a child started by a big
    /// parent would report the parent's peak), else ru_maxrss.
    static func peakRSSMiB() -> Double {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kib = Double(line.split(separator: " ").dropFirst().first ?? "") {
            return kib / 1024
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }

    /// A `/proc/self/status` size line (`RssFile:`, `RssAnon:`) in MiB (0 when unreadable).
    static func statusMiB(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kib / 1024
    }

    static func now() -> Double { Date().timeIntervalSince1970 }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// `1,234,567`.
func tuiBenchThousands(_ n: Int) -> String {
    let digits = String(n)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return out
}
