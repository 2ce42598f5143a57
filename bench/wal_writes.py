"""When a SQLite database's WAL was written (inotify, wall clock): a commit writes its pages there, so the first
write at or after a batch's `received_us` dates the start of that batch's commit's write (or of a background
merge's, which commits in the same WAL: the part is an upper bound of the time to the commit's write)."""

from __future__ import annotations

import bisect
import ctypes
import ctypes.util
import os
import select
import threading
import time
from pathlib import Path

IN_MODIFY = 0x00000002
IN_NONBLOCK = 0o4000


class WALWrites(threading.Thread):
    """Times every write to `wal` (wall clock, `time.time()`) until `stop`."""

    def __init__(self, wal: Path) -> None:
        super().__init__(daemon=True)
        self.libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.fd = self.libc.inotify_init1(IN_NONBLOCK)
        if self.fd < 0 or self.libc.inotify_add_watch(self.fd, str(wal).encode(), IN_MODIFY) < 0:
            raise OSError(ctypes.get_errno(), f"inotify on {wal}")
        self.times: list[float] = []
        self.lock = threading.Lock()
        self.stopped = threading.Event()

    def run(self) -> None:
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        while not self.stopped.is_set():
            if not poller.poll(200):
                continue
            now = time.time()
            try:
                os.read(self.fd, 65536)  # the events themselves say nothing more: one write or several
            except BlockingIOError:
                continue
            with self.lock:
                self.times.append(now)

    def first_at_or_after(self, at: float) -> float | None:
        with self.lock:
            index = bisect.bisect_left(self.times, at)
            return self.times[index] if index < len(self.times) else None

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=2)
        os.close(self.fd)
