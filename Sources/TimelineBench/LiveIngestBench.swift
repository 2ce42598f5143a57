import Foundation
import TimelineCore
import TimelineStore

/// The store's live write path on the realistic mix, without SQS: the first events of a mix file
/// (`bench/realistic_mix.py`) are imported as history, the next ones are stored in small commits at a steady
/// rate, as a viewer's poller stores them (search indexing and merging included), and the process's CPU per
/// live event is printed, counted until the background upkeep (merges, checkpoints) has settled; then what
/// the rows still waiting for the full-text index cost a few searches.
///
/// Run by `bench/live_ingest_bench.py`, which makes the mix file and passes TIMELINE_LIVE_INGEST_MIX, with
/// TIMELINE_LIVE_INGEST_HISTORY (events of history, default 200,000), TIMELINE_LIVE_INGEST_EVENTS (live
/// events, default 20,000), TIMELINE_LIVE_INGEST_RATE (events a second, default 1,000) and
/// TIMELINE_LIVE_INGEST_COMMIT (events per commit, default 10).
func runLiveIngestBench(mixPath: String) {
    let environment = ProcessInfo.processInfo.environment
    func setting(_ name: String, _ fallback: Int) -> Int { environment[name].flatMap(Int.init).map { max(1, $0) } ?? fallback }
    let history = setting("TIMELINE_LIVE_INGEST_HISTORY", 200_000)
    let live = setting("TIMELINE_LIVE_INGEST_EVENTS", 20_000)
    let rate = setting("TIMELINE_LIVE_INGEST_RATE", 1_000)
    let commit = setting("TIMELINE_LIVE_INGEST_COMMIT", 10)
    do {
        try LiveIngestBench(mixPath: mixPath, history: history, live: live, rate: rate, commitEvents: commit).run()
    } catch {
        report("live ingest bench failed: \(error)")
        exit(1)
    }
}

private struct LiveIngestBench {
    let mixPath: String
    let history: Int
    let live: Int
    let rate: Int
    let commitEvents: Int

    func run() throws {
        guard let text = FileManager.default.contents(atPath: mixPath) else {
            throw LiveBenchFailure("cannot read the mix file \(mixPath)")
        }
        var items: [IngestItem] = []
        items.reserveCapacity(history + live)
        for line in text.split(separator: UInt8(ascii: "\n")) where items.count < history + live {
            guard case .success(let event) = EventParser.parse(Array(line)) else { continue }
            items.append(.event(event, messageID: "m"))
        }
        guard items.count == history + live else {
            throw LiveBenchFailure("the mix file holds \(items.count) events, \(history + live) needed")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("timeline-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TimelineStore(path: directory.appendingPathComponent("live.db").path)
        try store.bulkWrite {
            for start in stride(from: 0, to: history, by: 50_000) {
                try store.ingest(Array(items[start..<min(history, start + 50_000)]), deferSearchIndex: true)
            }
            try store.flushSearchIndex()
        }

        let clock = ContinuousClock()
        let period = Duration.seconds(Double(commitEvents) / Double(rate))
        let cpuBefore = processCPUSeconds()
        let begin = clock.now
        var next = begin
        for start in stride(from: history, to: history + live, by: commitEvents) {
            try store.ingest(Array(items[start..<min(history + live, start + commitEvents)]))
            next = next.advanced(by: period)
            if next > clock.now { Thread.sleep(forTimeInterval: (next - clock.now).seconds) }
        }
        let stored = clock.now - begin
        // The upkeep the commits asked for (merges, checkpoints) is part of their cost: wait until it stops.
        var last = processCPUSeconds()
        for _ in 0..<60 {
            Thread.sleep(forTimeInterval: 0.5)
            let now = processCPUSeconds()
            if now - last < 0.005 { break }
            last = now
        }
        let cpu = processCPUSeconds() - cpuBefore
        report(String(format: "live ingest of the mix (%d events of history, %d live in commits of %d at %d/s, %.1f s): %.3f ms CPU per event",
                      history, live, commitEvents, rate, stored.seconds, 1000 * cpu / Double(live)))

        // What the rows still waiting for the full-text index cost a search (their text is tested, not indexed).
        let waiting = try store.searchIndexBacklog()
        let withWaiting = try searchTimes(store)
        try store.flushSearchIndex()
        let indexed = try searchTimes(store)
        for (index, term) in Self.searches.enumerated() {
            report(String(format: "search %@ (first window and count): %.2f ms with %d rows waiting for the index, %.2f ms with none",
                          "\"\(term)\"", withWaiting[index], waiting, indexed[index]))
        }
    }
}

extension LiveIngestBench {
    static let searches = ["deploy billing", "timeout", "zebra-rare"]

    /// Median wall milliseconds of each search's first window of 60 and its count, over 21 runs.
    func searchTimes(_ store: TimelineStore) throws -> [Double] {
        let clock = ContinuousClock()
        return try Self.searches.map { text in
            let query = TimelineQuery.parse(text)
            var times: [Double] = []
            for _ in 0..<21 {
                let took = try clock.measure {
                    _ = try store.rows(matching: query, olderThan: nil, limit: 60)
                    _ = try store.count(matching: query)
                }
                times.append(took.millis)
            }
            return times.sorted()[times.count / 2]
        }
    }
}

private struct LiveBenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
