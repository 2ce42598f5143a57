import TestSupport
import Foundation
import TimelineCore
import TimelineStore

/// TimelineStore benchmark: prints figures, asserts nothing.
///
/// For 1,000 and 1,000,000 events (one task per 20 events): bulk import rate, batches of 10 in their own
/// transactions, the first window of 60 rows, a window in the middle, a 3+ character search (first window
/// and count), and database bytes per event.
func runStoreBench() {
    report("== TimelineStore ==")
    var load = [0.0, 0.0, 0.0]
    if getloadavg(&load, 3) == 3 {
        report(String(format: "machine: %d cores, load average %.2f (figures are wall time unless marked CPU)",
                     ProcessInfo.processInfo.activeProcessorCount, load[0]))
    }
    let large = ProcessInfo.processInfo.environment["TIMELINE_BENCH_STORE_EVENTS"].flatMap(Int.init) ?? 1_000_000
    for total in [1_000, large] {
        do {
            try StoreBench(events: total, tasks: max(1, total / 20)).run()
        } catch {
            report("store bench with \(total) events failed: \(error)")
        }
    }
}

private struct StoreBench {
    let events: Int
    let tasks: Int
    let clock = ContinuousClock()
    /// TIMELINE_BENCH_VERBOSE=1 prints each bulk batch's time (to see whether cost grows with history).
    let verbose = ProcessInfo.processInfo.environment["TIMELINE_BENCH_VERBOSE"] == "1"

    func run() throws {
        // TIMELINE_BENCH_KEEP_DIR keeps the databases (bench-N.db) for a look with sqlite3 afterwards.
        let keep = ProcessInfo.processInfo.environment["TIMELINE_BENCH_KEEP_DIR"]
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("timeline-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
        let store = try TimelineStore(path: directory.appendingPathComponent("bench-\(events).db").path)
        var generator = EventGenerator(tasks: tasks)
        report("-- \(events) events over \(tasks) tasks")

        // Bulk import: big batches, generation not timed; the bulk settings held throughout, as `timeline import` does.
        // Each batch is prepared (`PreparedBatch`: column values, payload template, id key; its stored ids
        // looked up on a read-only connection) before the store's part is timed: `timeline import` prepares
        // the next batch on its reading thread, on the other core, while the store writes this one. The
        // preparation's own cost is printed beside.
        let batchSize = 100_000
        var importTime = Duration.zero
        var importCPU = 0.0
        var prepareCPU = 0.0
        var imported = 0
        let lookup = try TimelineStore(path: store.path, readOnly: true)
        let indexTime: Duration = try store.bulkWrite {
            while imported < events {
                let items = (0..<min(batchSize, events - imported)).map { _ in IngestItem.event(generator.next(), messageID: nil) }
                let prepareBefore = processCPUSeconds()
                var batch = PreparedBatch(items)
                try lookup.lookUpStoredKeys(of: &batch)
                prepareCPU += processCPUSeconds() - prepareBefore
                let cpuBefore = processCPUSeconds()
                let batchTime = try clock.measure { _ = try store.ingest(batch, deferSearchIndex: true) }
                importTime += batchTime
                importCPU += processCPUSeconds() - cpuBefore
                imported += batch.count
                if verbose {
                    report(String(format: "  batch ending at %d: %.2f s wall, %.2f CPU-s", imported, batchTime.seconds,
                                  processCPUSeconds() - cpuBefore))
                }
            }
            let cpuBefore = processCPUSeconds()
            let indexTime = try clock.measure { try store.flushSearchIndex() }
            importCPU += processCPUSeconds() - cpuBefore
            return indexTime
        }
        importTime += indexTime
        report(String(format: "bulk import (batches of %d, then the search index): %.0f events/s wall (%.2f s, of which search index %.2f s), %.0f events per CPU-second",
                     batchSize, Double(events) / importTime.seconds, importTime.seconds, indexTime.seconds, Double(events) / importCPU))
        report(String(format: "  preparing the batches and looking their ids up (the import's reading thread, beside the store): %.2f µs CPU per event",
                     prepareCPU / Double(events) * 1_000_000))

        // Poller-sized batches: 10 events, each batch its own transaction.
        var batchTimes: [Duration] = []
        for _ in 0..<min(1_000, max(100, events / 100)) {
            let batch = (0..<10).map { _ in IngestItem.event(generator.next(), messageID: "m") }
            batchTimes.append(try clock.measure { _ = try store.ingest(batch) })
        }
        report(String(format: "ingest batch of 10 (own transaction): median %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms",
                     percentile(batchTimes, 0.5).millis, percentile(batchTimes, 0.9).millis,
                     percentile(batchTimes, 0.99).millis, percentile(batchTimes, 1).millis))
        if verbose {
            let slowest = batchTimes.indices.sorted { batchTimes[$0] > batchTimes[$1] }.prefix(15).sorted()
            report("  slowest batches (number: ms): " + slowest.map { String(format: "%d: %.1f", $0, batchTimes[$0].millis) }
                .joined(separator: ", "))
        }

        // The reads below measure a settled file: without this, the background checkpoint of the WAL the
        // back-to-back batches left (up to `Checkpointer.walPagesLimit` pages) competes with them for the
        // two cores, and a window read measured 0.2 ms in one run and 1.9 ms in the next.
        try store.checkpoint()

        let everything = TimelineQuery()
        let first = try repeatTimed { _ = try store.rows(matching: everything, olderThan: nil, limit: 60) }
        report(String(format: "first window of 60 rows: median %.3f ms", first.millis))

        let rowCount = try store.count(matching: everything)
        guard let middleKey = try store.rows(matching: everything, olderThan: nil, limit: max(1, rowCount / 2)).last?.key else {
            report("the timeline is empty: no window figures")
            return
        }
        let middle = try repeatTimed { _ = try store.rows(matching: everything, olderThan: middleKey, limit: 60) }
        let up = try repeatTimed { _ = try store.rows(matching: everything, newerThan: middleKey, limit: 60) }
        let position = try repeatTimed { _ = try store.countNewer(than: middleKey, matching: everything) }
        report(String(format: "window of 60 in the middle (of %d rows): older %.3f ms, newer %.3f ms; its position %.3f ms",
                     rowCount, middle.millis, up.millis, position.millis))
        let counts = try repeatTimed { _ = try store.statusCounts(matching: everything) }
        report(String(format: "status counts: %.3f ms", counts.millis))
        // `timeline status`: a fresh read-only connection and the fleet counts, as the command does.
        let path = store.path
        let status = try repeatTimed { _ = try TimelineStore(path: path, readOnly: true).fleetCounts() }
        let fleet = try repeatTimed { _ = try store.fleetCounts() }
        report(String(format: "timeline status (open read-only + fleet counts): %.3f ms; fleet counts alone %.3f ms",
                     status.millis, fleet.millis))

        // The last two: negation (a term excluded through its match set).
        for text in ["deploy", "migration", "zebra-rare", "-deploy", "migration -deploy"] {
            let query = TimelineQuery.parse(text)
            var matches = 0
            let window = try repeatTimed { _ = try store.rows(matching: query, olderThan: nil, limit: 60) }
            let count = try repeatTimed { matches = try store.count(matching: query) }
            report(String(format: "search %@ (%d matching tasks): first window %.3f ms, count %.3f ms, both %.3f ms",
                         "\"\(text)\"", matches, window.millis, count.millis, window.millis + count.millis))
        }
        let short = TimelineQuery.parse("#7 status:error")
        let shortTime = try repeatTimed { _ = try store.rows(matching: short, olderThan: nil, limit: 60) }
        report(String(format: "short-term search \"#7 status:error\" (LIKE fallback): first window %.3f ms", shortTime.millis))

        try store.checkpoint()
        let stats = try store.stats()
        report(String(format: "database: %d events, %d tasks, %.1f MB, %.0f bytes/event",
                     stats.events, stats.tasks, Double(stats.fileBytes) / 1e6,
                     Double(stats.fileBytes) / Double(stats.events)))
    }

    /// TIMELINE_BENCH_STORE_REPEAT: runs per figure (21 unless given); many, to profile a read under perf.
    let repeats = ProcessInfo.processInfo.environment["TIMELINE_BENCH_STORE_REPEAT"].flatMap(Int.init).map { max(1, $0) } ?? 21

    /// Median of several runs after one warm-up.
    private func repeatTimed(_ body: () throws -> Void) throws -> Duration {
        try body()
        var times: [Duration] = []
        for _ in 0..<repeats { times.append(try clock.measure(body)) }
        return percentile(times, 0.5)
    }

    private func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }
}

/// Prints one line unbuffered, so figures appear as they are measured (also through a pipe).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// User + system CPU time of this process (wall time on a shared machine says little on its own).
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Realistic events: increasing timestamps with some late arrivals, varied titles and ~400-byte raw JSON.
private struct EventGenerator {
    let tasks: Int
    var counter = 0
    var rng = SplitMix64(seed: 42)
    static let verbs = ["Deploy", "Review", "Test", "Refactor", "Migration of", "Index", "Build", "Scan", "Sync", "Audit"]
    static let objects = ["billing service", "auth module", "search API", "payments DB", "web frontend",
                          "CI pipeline", "docs site", "mobile app", "data lake", "cache layer"]
    static let categories = ["deploy", "code-review", "ci", "migration", "security", nil]
    static let agents = (0..<25).map { "agent-\($0)" }

    mutating func next() -> Event {
        counter += 1
        let task = Int(rng.next() % UInt64(tasks))
        // One event in 20 arrives up to 10 minutes late.
        let lateness: Int64 = rng.next() % 20 == 0 ? Int64(rng.next() % 600_000_000) : 0
        let micros = 1_800_000_000_000_000 + Int64(counter) * 1_000 - lateness
        let status = Status.allCases[Int(rng.next() % 5)]
        let title = "\(Self.verbs[task % Self.verbs.count]) \(Self.objects[(task / 10) % Self.objects.count]) #\(task)"
        let body = "Step \(counter % 17) of the \(Self.objects[task % Self.objects.count]) run: processed \(rng.next() % 10_000) items, "
            + "\(rng.next() % 50) warnings. Next: verify outputs and report back to the coordinator."
        let agent = Self.agents[task % Self.agents.count]
        let category = Self.categories[task % Self.categories.count]
        // Random UUIDv4-shaped ids, as agent-tool's publish_event.py sends (uuid4): the id index is then
        // written at random places, as in real use.
        let id = String(format: "%08llx-%04llx-4%03llx-a%03llx-%012llx", rng.next() & 0xFFFF_FFFF, rng.next() & 0xFFFF,
                        rng.next() & 0xFFF, rng.next() & 0xFFF, rng.next() & 0xFFFF_FFFF_FFFF)
        let progress: Double? = status == .inProgress ? Double(rng.next() % 101) : nil
        let raw = #"{"id":"\#(id)","agent_id":"\#(agent)","task_id":"task-\#(task)","title":"\#(title)","body":"\#(body)","status":"\#(status.rawValue)","category":"\#(category ?? "")","timestamp":"\#(TimeFormat.iso8601(micros: micros))","host":"worker-\#(task % 7)"}"#
        return Event(id: id, agentID: agent, taskID: "task-\(task)", title: title, body: body, status: status,
                     category: category, timestampMicros: micros, progress: progress, rawJSON: raw)
    }
}

/// A duration as a number, for the benches' figures.
extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var millis: Double { seconds * 1000 }
}
