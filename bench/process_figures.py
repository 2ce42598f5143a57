"""Figures of a running process read from /proc (CPU, bytes written, peak memory) and of a timeline database
(events stored), shared by the benches that divide them per event."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (utime+stime) of a process and its live descendants, from /proc."""
    total = 0.0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(c) for c in children)
        except OSError:
            continue
    return total


def process_cpu(pid: int) -> float:
    """CPU seconds (utime+stime) of one process alone (its threads, not its children), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except OSError:
        return 0.0


def write_bytes(pid: int) -> int:
    """Bytes a process caused to be written to storage so far (/proc/PID/io); 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def peak_rss_kib(pid: int) -> int:
    """A process's peak resident set (VmHWM, KiB); 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def stored_events(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as connection:
            return connection.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.Error:
        return 0
