"""The end of `make bench`: the table of figures, one row per figure with its target beside it, read from the log
of this run (every part prints its own figures; this only gathers them). A row whose part did not run (see
TIMELINE_BENCH_ONLY) says so. Asserts nothing.

    python bench/bench_table.py bench.log
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Callable


@dataclass
class Row:
    figure: str
    target: str
    part: str  # the TIMELINE_BENCH_ONLY part that measures it
    read: Callable[[str], str | None]


def last(pattern: str, text: str) -> re.Match[str] | None:
    matches = list(re.finditer(pattern, text, re.MULTILINE))
    return matches[-1] if matches else None


def section(text: str, start: str, end: str = r"^(?:==|tui \d|-- \d)") -> str:
    """The lines after the last line matching `start`, up to the next section heading."""
    match = last(start, text)
    if not match:
        return ""
    rest = text[match.end():]
    stop = re.search(end, rest, re.MULTILINE)
    return rest[:stop.start()] if stop else rest


def found(pattern: str, text: str, render: Callable[[re.Match[str]], str]) -> str | None:
    match = last(pattern, text)
    return render(match) if match else None


def onscreen(log: str) -> str | None:
    """Both rhythms of the bench: events after a quiet spell, then back to back."""
    shown = []
    for rhythm, label in [("after a quiet spell", "quiet"), ("back to back", "back to back")]:
        match = last(rf"publish -> on screen, {rhythm}: median ([\d.]+) ms, p90 ([\d.]+) ms, p99 ([\d.]+) ms", log)
        if match:
            shown.append(f"{label}: median {match[1]} ms, p90 {match[2]} ms, p99 {match[3]} ms")
    return "; ".join(shown) if shown else None


def idle(log: str) -> str | None:
    return found(r"idle TUI: ([\d.]+) % CPU, ([\d.]+) wake-ups a second", log,
                 lambda m: f"{m[1]} % CPU, {m[2]} wake-ups a second")


def tui_1m(pattern: str, render: Callable[[re.Match[str]], str]) -> Callable[[str], str | None]:
    return lambda log: found(pattern, section(log, r"^tui 1,000,000 events.*$"), render)


def cold_start(log: str) -> str | None:
    small = found(r"cold start 1,000 events: first frame median ([\d.]+) ms", log, lambda m: m[1])
    large = found(r"cold start 1,000,000 events: first frame median ([\d.]+) ms, max ([\d.]+) ms", log,
                  lambda m: f"median {m[1]} ms (max {m[2]})")
    if large is None:
        return None
    return large + (f"; 1,000 events: {small} ms" if small else "")


def drain(log: str) -> str | None:
    ratios = section(log, r"^\s*ratios timeline / boto3.*$")
    first = re.search(r"wall\s+([\d.]+)\s+CPU\s+([\d.]+)", ratios)  # the first run uses the default settings
    return f"{first[2]}× CPU, {first[1]}× wall (default settings)" if first else None


def store_1m(pattern: str, render: Callable[[re.Match[str]], str]) -> Callable[[str], str | None]:
    return lambda log: found(pattern, section(log, r"^-- 1000000 events.*$"), render)


def hooks(log: str) -> str | None:
    figure = r"wall p50 ([\d.]+) ms, p90 ([\d.]+) ms; CPU p50 ([\d.]+) ms, p90 ([\d.]+) ms"
    hook = found(r"^hook run \(whole process\): " + figure, log,
                 lambda m: f"p50 {m[1]} ms wall, {m[3]} ms CPU (p90 {m[2]} / {m[4]})")
    python = found(r"^python3 -c pass \(same run\): " + figure, log,
                   lambda m: f"python3 -c pass: p50 {m[1]} ms wall, {m[3]} ms CPU")
    sender = found(r"^background sender \(sends what the hooks spool\):.* ([\d.]+) ms per event", log,
                   lambda m: f"+ {m[1]} ms CPU per event in the background sender")
    server = found(r"^SendMessage alone, open boto3 client \(same server\): p50 ([\d.]+) ms", log,
                   lambda m: f"the server alone: {m[1]} ms")
    return "; ".join(p for p in (hook, sender, python, server) if p) if hook and python else None


def prompt_on_screen(log: str) -> str | None:
    return found(r"^hook start -> prompt on screen: p50 ([\d.]+) ms, p90 ([\d.]+) ms", log,
                 lambda m: f"p50 {m[1]} ms (p90 {m[2]} ms)")


def cjk(log: str) -> str | None:
    latin = found(r"search ASCII '.*?': typed to result on screen ([\d.]+) ms", log, lambda m: m[1])
    wide = found(r"search CJK '.*?': typed to result on screen ([\d.]+) ms", log, lambda m: m[1])
    return f"CJK {wide} ms, ASCII {latin} ms (typed to result on screen)" if wide and latin else None


def sustained(log: str) -> str | None:
    screen = found(r"sustained on-screen latency \(publish -> [^)]*\): median ([\d.]+) ms, p90 [\d.]+ ms, p99 ([\d.]+) ms", log,
                   lambda m: f"p99 {m[2]} ms (median {m[1]})")
    backlog = found(r"backlog: .*?max ([\d,]+) messages = max ([\d.]+) s", log, lambda m: f"backlog max {m[2]} s")
    cpu = found(r"sustained viewer CPU: ([\d.]+) %", log, lambda m: f"viewer {m[1]} % CPU")
    rate = found(r"published: offered .*?accepted ([\d,]+)/s", log, lambda m: f"at {m[1]} events/s")
    parts = [p for p in (backlog, screen, cpu, rate) if p]
    return ", ".join(parts) if parts else None


def live(log: str) -> str | None:
    cpu = found(r"^live ingest of the mix .*?: ([\d.]+) ms CPU per event", log, lambda m: f"{m[1]} ms CPU/event")
    search = found(r'^search "deploy billing" \(first window and count\): ([\d.]+) ms with ([\d,]+) rows waiting .*?, ([\d.]+) ms with none',
                   log, lambda m: f"search {m[1]} ms with {m[2]} rows waiting ({m[3]} ms with none)")
    parts = [p for p in (cpu, search) if p]
    return ", ".join(parts) if parts else None


def prune(log: str) -> str | None:
    wall = found(r"prune 90 % of ([\d,]+) events: ([\d.]+) s wall", log, lambda m: f"{m[2]} s for {m[1]} events")
    probe = found(r"TUI probe during the prune: .*?worst ([\d.]+) ms, (\d+) of (\d+) over", log,
                  lambda m: f"TUI worst {m[1]} ms ({m[2]} of {m[3]} probes over 50)")
    size = found(r"file: ([\d,.]+) MiB -> ([\d,.]+) MiB", log, lambda m: f"{m[1]} -> {m[2]} MiB")
    parts = [p for p in (wall, probe, size) if p]
    return "; ".join(parts) if parts else None


def scale(pattern: str, render: Callable[[re.Match[str]], str]) -> Callable[[str], str | None]:
    return lambda log: found(pattern, section(log, r"^== scale.*$", r"^==(?! scale)"), render)


def scale_read(name: str) -> Row:
    return Row(f"{name} at 10M vs 50k events (whole process)", "≤ 1.5× the 50k figure", "scale",
               scale(rf"^scale read {name} \(whole process\): ([\d.]+) ms at ([\d,]+), ([\d.]+) ms at [\d,]+, ratio ([\d.]+)",
                     lambda m: f"{m[4]}× ({m[1]} ms at {m[2]}, {m[3]} ms)"))


def scale_viewer(log: str) -> str | None:
    """The viewer's reads at 10M against 50k (CPU, `TimelineBench`), worst ratio first."""
    text = section(log, r"^== scale.*$", r"^==(?! scale)")
    found_reads = re.findall(r"^scale viewer ([a-z ]+) \(CPU\): ([\d.]+) ms at [\d,]+, ([\d.]+) ms at [\d,]+, ratio ([\d.]+)",
                             text, re.MULTILINE)
    if not found_reads:
        return None
    worst = sorted(found_reads, key=lambda m: -float(m[3]))
    return "; ".join(f"{name} {ratio}×" for name, _, _, ratio in worst)


ROWS = [
    Row("publish → on screen (tui in tmux, moto, SendMessage)", "median ≤ 30 ms, p99 ≤ 80 ms", "onscreen", onscreen),
    Row("idle TUI, empty queue, 60 s", "≤ 0.05 % CPU, ≤ 2 wake-ups a second", "idle", idle),
    Row("peak RSS of the TUI, 1,000,000 events", "≤ 24 MiB", "tui",
        tui_1m(r"peak RSS\s+([\d.]+) MiB", lambda m: f"{m[1]} MiB")),
    Row("cold start to first frame, 1,000,000 events", "≤ 150 ms", "coldstart", cold_start),
    Row("drain 10,000 messages, client CPU vs boto3", "≤ 0.20× (wall ≤ 0.8×)", "drain", drain),
    Row("bulk import, 1,000,000 events, search index included", "≥ 100k events/s", "store",
        store_1m(r"bulk import .*?: (\d+) events/s wall", lambda m: f"{int(m[1]) / 1000:.0f}k events/s")),
    Row("ingest batch of 10 at 1,000,000 events, p99", "≤ 5 ms", "store",
        store_1m(r"ingest batch of 10 .*?p99 ([\d.]+) ms", lambda m: f"{m[1]} ms")),
    Row("search keystroke, 1,000,000 events, worst frame", "≤ 16 ms", "tui",
        tui_1m(r"search keystroke frame\s+[\d.]+ ms median wall, ([\d.]+) ms worst", lambda m: f"{m[1]} ms")),
    Row("match counts settle, 1,000,000 events, worst query", "≤ 250 ms", "tui",
        tui_1m(r"match counts settle\s+([\d.]+) ms(?:.*?exact counts past 10,000 after ([\d.]+) ms)?",
               lambda m: f"{m[1]} ms" + (f" (exact counts past 10,000: {m[2]} ms)" if m[2] else ""))),
    Row("CJK search keystroke, 100,000 events", "same budget as ASCII", "cjk", cjk),
    Row("live write path (store only), 10 fleets = 2,000 tasks running, 1,000 events/s", "part of the viewer's ≤ 0.3 ms/event",
        "live", live),
    Row("sustained ingest, 1,000 events/s from 50 publishers, 5 min, tui in tmux (LocalStack)",
        "backlog < 2 s, on screen p99 ≤ 100 ms, viewer ≤ 30 % CPU", "sustained", sustained),
    Row("prune 90 % of a 10,000,000-event history beside the TUI", "≤ 60 s, no TUI probe > 50 ms, file shrinks",
        "prune", prune),
    Row("reporting hook, whole process (timeline hook claude, PostToolUse)", "p50 ≤ 15 ms wall, ≤ 10 ms CPU", "hooks",
        hooks),
    Row("permission prompt: hook start → shown in the TUI (tmux, moto)", "p50 ≤ 100 ms", "hooks", prompt_on_screen),
    Row("database bytes per byte of the events' JSON", "≤ 1.2×", "scale",
        scale(r"^scale database bytes per JSON byte: ([\d.]+)x at ([\d,]+).*?, ([\d.]+)x at",
              lambda m: f"{m[1]}× at {m[2]} events ({m[3]}× at 50k)")),
    Row("bulk import up to 10M events, slowest 1M segment", "≥ 100k events/s", "scale",
        scale(r"^scale bulk import: slowest segment ([\d,]+) events/s", lambda m: f"{m[1]} events/s")),
    *[scale_read(name) for name in ("first page", "qualifiers", "search", "status")],
    Row("the viewer's reads at 10M vs 50k events (CPU, worst first)", "each ≤ 1.5× the 50k figure", "scale", scale_viewer),
    Row("peak RSS of the reads at 10M events", "≤ 24 MiB", "scale",
        scale(r"^scale peak RSS of the reads: ([\d.]+) MiB", lambda m: f"{m[1]} MiB")),
]


def main() -> None:
    log = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    width = max(len(row.figure) for row in ROWS)
    print("\n== figures and targets (this run)")
    for row in ROWS:
        value = row.read(log) or f"not measured in this run (part `{row.part}`)"
        print(f"  {row.figure:<{width}}  {value}\n  {'':<{width}}  target: {row.target}")


if __name__ == "__main__":
    main()
