@preconcurrency import Glibc  // before Foundation: lets setvbuf below name `stdout` (a C global)
import Foundation
import TimelineRuntime

// TimelineBench: prints figures for `make bench`; asserts nothing.
//
// The TUI bench runs first: it re-executes this binary once per database size with
// TIMELINE_TUI_BENCH_CHILD set, and that child measures and exits inside `runTUIBench()`, so it never
// reaches the other parts. TIMELINE_BENCH_ONLY (any of `knownParts`) selects parts.

// Line-buffered stdout: our lines and the TUI children's lines come out in order through a pipe.
setvbuf(stdout, nil, _IOLBF, 0)

// The same process settings as `timeline` (the TUI child measures the viewer's memory).
ProcessMemory.configure()
let environment = ProcessInfo.processInfo.environment
let isTUIChild = environment["TIMELINE_TUI_BENCH_CHILD"] != nil
// The other parts are the Python benches that `make bench` runs after this one: drain and latency
// (bench/sqs_benches.py), onscreen, idle, coldstart and cjk (bench/terminal_benches.py), hooks (bench/hook_bench.py),
// live (bench/live_ingest_bench.py), sustained (bench/sustained_bench.py), prune (bench/prune_bench.py) and scale
// (bench/scale_bench.py).
let knownParts: Set<String> = ["tui", "store", "json", "drain", "latency", "onscreen", "idle", "coldstart", "cjk", "hooks",
                               "live", "sustained", "prune", "scale"]
let selected: Set<String> = environment["TIMELINE_BENCH_ONLY"]
    .map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }) } ?? knownParts

if let scaleDatabase = environment["TIMELINE_SCALE_READS_DB"] {
    runScaleReadsBench(databasePath: scaleDatabase)  // bench/scale_bench.py's viewer figures for one database
    exit(0)
}
if let mix = environment["TIMELINE_LIVE_INGEST_MIX"] {
    runLiveIngestBench(mixPath: mix)  // bench/live_ingest_bench.py: the store's live write path on the mix
    exit(0)
}
if isTUIChild {
    runTUIBench()  // measures one database and exits
    exit(0)
}
let unknown = selected.subtracting(knownParts)
if !unknown.isEmpty {
    FileHandle.standardError.write(Data(
        "TimelineBench: unknown part(s) \(unknown.sorted().joined(separator: ", ")) in TIMELINE_BENCH_ONLY (known: \(knownParts.sorted().joined(separator: ", ")))\n".utf8))
    exit(2)
}
if selected.isDisjoint(with: ["tui", "store", "json"]) { exit(0) }
print("timeline bench: " + ["tui", "store", "json"].filter(selected.contains).joined(separator: ", "))
if selected.contains("tui") { runTUIBench() }
if selected.contains("store") { runStoreBench() }
if selected.contains("json") { runResponseJSONBench() }
