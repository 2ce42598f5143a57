"""`make bench`'s terminal part: the real `timeline tui` binary where a person would feel it.

Parts (TIMELINE_BENCH_ONLY picks them; other part names are ignored here):
  onscreen   publish -> on screen: `timeline tui` polling a moto queue in tmux, boto3 SendMessage one event at a
             time, the clock stopped when `tmux capture-pane` first shows the event's title. Twice: each event
             after a quiet spell of 50-150 ms (as an agent's event comes, at any point of the viewer's frame),
             then back to back (each sent as the last one showed: in step with the viewer's frame pace,
             at most 40 frames a second, where an event waits for its frame's slot). TIMELINE_BENCH_ONSCREEN_EVENTS (200) each.
  idle       idle TUI on an empty queue: CPU (utime+stime from /proc/PID/stat) and wake-ups (voluntary context
             switches of every thread, /proc/PID/task/*/status) over TIMELINE_BENCH_IDLE_SECONDS (60).
  coldstart  cold start to first frame, whole process: fork+exec of `timeline tui --no-poll` on a pty until the
             first frame (status bar) and the newest row are written, with 1,000 and 1,000,000 events (built once
             with `timeline import`; TIMELINE_BENCH_COLDSTART_SIZES=1000 for a quick run).
  cjk        search keystroke -> results on screen with 100,000 events (TIMELINE_BENCH_CJK_EVENTS), a CJK query
             beside an ASCII one, typed into the real TUI in tmux.
Prints figures with their targets; asserts nothing. Every process started here is stopped here.

    python bench/terminal_benches.py --timeline .build/release/timeline
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import pty
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import uuid
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))
from timeline_testing.tmux import Tmux  # noqa: E402  (the one tmux harness; puts scripts/ on sys.path)

import sqs_server  # noqa: E402
from sqs_bench_support import REGION, child_environment, percentile  # noqa: E402

PARTS = ["onscreen", "idle", "coldstart", "cjk"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
ms = lambda seconds: seconds * 1000  # noqa: E731


def spread(values: list[float]) -> str:
    """median, p90, p99 and max in milliseconds."""
    ordered = sorted(values)
    return (f"median {ms(percentile(ordered, 0.5)):.1f} ms, p90 {ms(percentile(ordered, 0.9)):.1f} ms, "
            f"p99 {ms(percentile(ordered, 0.99)):.1f} ms, max {ms(ordered[-1]):.1f} ms")


def event(n: int, title: str, seconds_ago: float = 0.0, **fields) -> dict:
    stamp = time.time() - seconds_ago
    return {"id": str(uuid.uuid4()), "agent_id": f"agent-{n % 25}", "task_id": fields.pop("task_id", f"task-{n}"),
            "title": title, "status": ["info", "in_progress", "success", "warning", "error"][n % 5],
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(stamp)) + f".{int(stamp % 1 * 1e6):06d}Z",
            **fields}


def import_events(timeline: str, database: Path, lines, env: dict[str, str]) -> None:
    """Feeds JSON lines to `timeline import --db database -` (the CLI's own bulk path)."""
    process = subprocess.Popen([timeline, "import", "--db", str(database), "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert process.stdin is not None
    for line in lines:
        process.stdin.write(line)
    process.stdin.close()
    if process.wait() != 0:
        raise RuntimeError(f"timeline import failed: {process.stderr.read().decode(errors='replace')[-500:]}")


def tui_command(timeline: str, database: Path, queue_url: str | None = None, endpoint: str | None = None):
    if queue_url is None:
        return [timeline, "tui", "--no-poll", "--db", str(database)]
    return [timeline, "tui", "--queue-url", queue_url, "--endpoint-url", endpoint, "--region", REGION,
            "--db", str(database)]


# ------------------------------------------------------------------------------------------------ onscreen

def run_onscreen(timeline: str, endpoint: str, folder: Path, samples: int, warmup: int = 5) -> None:
    print(f"== publish -> on screen: {samples} events, boto3 SendMessage to moto, `timeline tui` in tmux "
          "(target: median <= 30 ms, p99 <= 80 ms)", flush=True)
    for rhythm, quiet in [("after a quiet spell", (0.05, 0.15)), ("back to back", None)]:
        run_onscreen_rhythm(timeline, endpoint, folder, samples, warmup, rhythm, quiet)


def run_onscreen_rhythm(timeline: str, endpoint: str, folder: Path, samples: int, warmup: int, rhythm: str,
                        quiet: tuple[float, float] | None) -> None:
    """One pass of `run_onscreen`: each event sent after a random quiet spell in `quiet` (seconds), or as soon
    as the last one showed (None)."""
    client = sqs_server.sqs_client(endpoint)
    queue_url = client.create_queue(QueueName=sqs_server.unique_queue_name("bench-onscreen"))["QueueUrl"]
    tmux = Tmux()
    try:
        database = folder / f"onscreen-{'quiet' if quiet else 'back-to-back'}.db"
        tmux.start(tui_command(timeline, database, queue_url, endpoint), env=child_environment(),
                   width=120, height=40)
        if tmux.shown_at("No events yet", 30) is None:
            print(f"  the TUI did not start; screen:\n{tmux.capture()}")
            return
        latencies, missing = [], 0
        for n in range(warmup + samples):
            title = f"on-screen probe {n:04d} {uuid.uuid4().hex[:8]}"
            body = json.dumps(event(n, title, task_id=f"probe-{n % 30}"))
            if quiet:
                time.sleep(random.uniform(*quiet))
            started = time.perf_counter()
            client.send_message(QueueUrl=queue_url, MessageBody=body)
            shown = tmux.shown_at(title, 30)
            if n < warmup:
                continue
            if shown is None:
                missing += 1
            else:
                latencies.append(shown - started)
        if latencies:
            print(f"  publish -> on screen, {rhythm}: {spread(latencies)} over {len(latencies)} events"
                  + (f" ({missing} not shown within 30 s)" if missing else ""), flush=True)
    finally:
        tmux.kill()
        client.delete_queue(QueueUrl=queue_url)


# ------------------------------------------------------------------------------------------------ idle

def process_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)


def voluntary_switches(pid: int) -> tuple[int, int, int]:
    """(all threads, main thread, thread count): voluntary context switches, i.e. the times a thread slept."""
    total, main, threads = 0, 0, 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except OSError:
            continue  # the thread ended meanwhile
        count = int(next(line for line in status.splitlines() if line.startswith("voluntary_ctxt_switches:"))
                    .split()[1])
        total += count
        threads += 1
        if task.name == str(pid):
            main = count
    return total, main, threads


def run_idle(timeline: str, endpoint: str, folder: Path, seconds: float) -> None:
    print(f"== idle TUI, empty queue, {seconds:.0f} s (target: <= 0.05 % CPU, <= 2 wake-ups a second)", flush=True)
    client = sqs_server.sqs_client(endpoint)
    queue_url = client.create_queue(QueueName=sqs_server.unique_queue_name("bench-idle"))["QueueUrl"]
    tmux = Tmux()
    try:
        tmux.start(tui_command(timeline, folder / "idle.db", queue_url, endpoint), env=child_environment(),
                   width=120, height=40)
        if tmux.shown_at("No events yet", 30) is None:
            print(f"  the TUI did not start; screen:\n{tmux.capture()}")
            return
        pid = tmux._pane_pids[0]  # `exec env -i ... timeline`: the pane's process is the TUI itself
        time.sleep(3)  # past start-up (connections, the first long polls)
        cpu0, (switches0, main0, _), wall0 = process_cpu_seconds(pid), voluntary_switches(pid), time.monotonic()
        time.sleep(seconds)
        cpu1, (switches1, main1, threads), wall1 = process_cpu_seconds(pid), voluntary_switches(pid), time.monotonic()
        wall = wall1 - wall0
        print(f"  idle TUI: {100 * (cpu1 - cpu0) / wall:.3f} % CPU, {(switches1 - switches0) / wall:.1f} wake-ups a "
              f"second (all {threads} threads; main thread {(main1 - main0) / wall:.1f} a second) over {wall:.0f} s",
              flush=True)
    finally:
        tmux.kill()
        client.delete_queue(QueueUrl=queue_url)


# ------------------------------------------------------------------------------------------------ cold start

def first_frame_on_pty(command: list[str], env: dict[str, str], newest_title: str,
                       size=(40, 120), timeout: float = 60) -> float:
    """Seconds from fork to the first whole frame written to a pty: the status bar and the newest row."""
    started = time.perf_counter()
    pid, master = pty.fork()
    if pid == 0:  # the child: the terminal is the pty
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
        os.execve(command[0], command, env)
    output, frame_at, row_at = b"", None, None
    deadline = started + timeout
    try:
        while (frame_at is None or row_at is None) and time.perf_counter() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
            now = time.perf_counter()
            if frame_at is None and b"FOLLOW" in output:
                frame_at = now
            if row_at is None and newest_title.encode() in output:
                row_at = now
    finally:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(master)
    if frame_at is None or row_at is None:
        raise RuntimeError(f"no first frame within {timeout} s; output: {output[-400:]!r}")
    return max(frame_at, row_at) - started


def run_coldstart(timeline: str, folder: Path, sizes: list[int], runs: int = 5) -> None:
    print("== cold start to first frame, whole process (fork+exec to the frame written to a pty; "
          "target at 1,000,000 events: <= 150 ms)", flush=True)
    env = {**child_environment(), "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    for size in sizes:
        database = folder / f"coldstart-{size}.db"
        newest = f"cold start newest row {uuid.uuid4().hex[:8]}"
        started = time.monotonic()
        lines = (json.dumps(event(n, f"Step {n % 17} of bench task {n // 20}", seconds_ago=(size - n) / 1000,
                                  task_id=f"task-{n // 20}")).encode() + b"\n" for n in range(size))
        import_events(timeline, database, lines, env)
        import_events(timeline, database, [json.dumps(event(size, newest, task_id="newest")).encode() + b"\n"], env)
        print(f"  built {size:,} events with `timeline import` in {time.monotonic() - started:.1f} s", flush=True)
        first_frame_on_pty(tui_command(timeline, database), env, newest)  # page cache warm, as a second start
        frames = sorted(first_frame_on_pty(tui_command(timeline, database), env, newest) for _ in range(runs))
        print(f"  cold start {size:,} events: first frame median {ms(frames[runs // 2]):.1f} ms, "
              f"max {ms(frames[-1]):.1f} ms over {runs} starts", flush=True)
        database.unlink(missing_ok=True)


# ------------------------------------------------------------------------------------------------ CJK search

def run_cjk(timeline: str, folder: Path, size: int = 100_000) -> None:
    print(f"== search keystroke -> results on screen, {size:,} events, CJK beside ASCII (real TUI in tmux; "
          "target: CJK within the ASCII budget, <= 16 ms a frame)", flush=True)
    env = {**child_environment(), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    database = folder / "cjk.db"
    cjk_words = ["ドキュメント翻訳", "検索索引の再構築", "デプロイ確認", "レビュー依頼"]
    ascii_words = ["document translation", "rebuild search index", "deploy check", "review request"]
    lines = (json.dumps(event(n, f"{cjk_words[n % 4]} {n} · {ascii_words[n % 4]}", seconds_ago=(size - n) / 100,
                              task_id=f"task-{n // 5}"), ensure_ascii=False).encode() + b"\n" for n in range(size))
    import_events(timeline, database, lines, env)
    # The rare targets: one task each, far down the history.
    import_events(timeline, database, [json.dumps(event(1, "翻訳メモリ監査 rare", seconds_ago=5000, task_id="rare-cjk"),
                                                  ensure_ascii=False).encode() + b"\n",
                                       json.dumps(event(2, "zebra audit rare", seconds_ago=5000,
                                                        task_id="rare-ascii")).encode() + b"\n"], env)
    tmux = Tmux()
    try:
        tmux.start(tui_command(timeline, database), env=env, width=120, height=40)
        if tmux.shown_at("FOLLOW", 60) is None:
            print(f"  the TUI did not start; screen:\n{tmux.capture()}")
            return
        for label, query, expected in (("ASCII", "zebra", "zebra audit rare"), ("CJK", "監査", "翻訳メモリ監査 rare")):
            tmux.send_keys("/")
            started = time.perf_counter()
            tmux.type(query)
            shown = tmux.shown_at(expected, 30)
            settled = tmux.shown_at("1 match", 30)
            if shown is None:
                print(f"  {label} query {query!r}: no result within 30 s; screen:\n{tmux.capture()}")
            else:
                print(f"  search {label} {query!r}: typed to result on screen {ms(shown - started):.1f} ms"
                      + (f", count shown {ms(settled - started):.1f} ms" if settled else ""), flush=True)
            tmux.send_keys("Escape")
            time.sleep(0.5)
    finally:
        tmux.kill()
        database.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeline", default=str(REPO_ROOT / ".build/release/timeline"))
    args = parser.parse_args()
    only = os.environ.get("TIMELINE_BENCH_ONLY")
    parts = [p for p in PARTS if not only or p in {s.strip().lower() for s in only.split(",")}]
    if not parts:
        return
    if shutil.which("tmux") is None:
        print("terminal benches need tmux (make deps installs it)")
        return
    timeline = str(Path(args.timeline).resolve())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the `finally` blocks stop what was started
    folder = Path(tempfile.mkdtemp(prefix="timeline-terminal-bench-"))
    try:
        if "coldstart" in parts:
            sizes = [int(s) for s in os.environ.get("TIMELINE_BENCH_COLDSTART_SIZES", "1000,1000000").split(",")]
            run_coldstart(timeline, folder, sizes)
        if "cjk" in parts:
            run_cjk(timeline, folder, int(os.environ.get("TIMELINE_BENCH_CJK_EVENTS", "100000")))
        if {"onscreen", "idle"} & set(parts):
            with sqs_server.MotoServer() as server:
                if "onscreen" in parts:
                    run_onscreen(timeline, server.endpoint, folder,
                                 int(os.environ.get("TIMELINE_BENCH_ONSCREEN_EVENTS", "200")))
                if "idle" in parts:
                    run_idle(timeline, server.endpoint, folder,
                             float(os.environ.get("TIMELINE_BENCH_IDLE_SECONDS", "60")))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
