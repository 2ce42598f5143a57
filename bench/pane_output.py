"""When a tmux pane shows something, to the millisecond, without polling the screen in a busy loop.

A control-mode client (`tmux -C attach`) is told of every chunk of output tmux reads from the pane's program
(`%output`); `PaneOutput` keeps the wall-clock time of each. `shown_at` captures the screen only after new
output came, and dates the text by the output that drew it: the last output before the capture that first
showed it (tmux updates its grid in the same step as it reports the output, so earlier output was already in
the capture before). The spread is the time between the first and the last output that may have drawn it
(the bench's resolution, usually 0: one frame between two captures).
"""

from __future__ import annotations

import bisect
import subprocess
import threading
import time
from dataclasses import dataclass


@dataclass
class Shown:
    """When the text reached the screen (the output that drew it), when the bench saw it, and the spread."""
    output_at: float
    seen_at: float
    spread: float


class PaneOutput(threading.Thread):
    """Times every output of a tmux session's panes (wall clock, `time.time()`) until `stop`."""

    def __init__(self, tmux) -> None:
        super().__init__(daemon=True)
        self.tmux = tmux
        self.times: list[float] = []
        self.changed = threading.Condition()
        # A control client with no size set does not resize the session's window.
        self.process = subprocess.Popen(
            ["tmux", "-L", tmux.socket, "-f", tmux._config, "-u", "-C", "attach", "-t", tmux.session],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def run(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith(b"%output "):
                now = time.time()
                with self.changed:
                    self.times.append(now)
                    self.changed.notify_all()

    def count(self) -> int:
        with self.changed:
            return len(self.times)

    def wait_beyond(self, count: int, timeout: float) -> None:
        """Waits until more than `count` outputs were seen, or `timeout` seconds."""
        with self.changed:
            self.changed.wait_for(lambda: len(self.times) > count, timeout=timeout)

    def shown_at(self, text: str, timeout: float) -> Shown | None:
        """When `text` first showed (see the module's doc), else None after `timeout` seconds."""
        deadline = time.time() + timeout
        last_miss = time.time()  # output before this was in a capture that lacked `text`
        while time.time() < deadline:
            seen = self.count()
            started = time.time()
            if text in self.tmux.capture():
                with self.changed:
                    candidates = self.times[bisect.bisect_right(self.times, last_miss):bisect.bisect_right(self.times, started)]
                if not candidates:  # drawn before the first capture (cannot happen once a miss came first)
                    return Shown(output_at=started, seen_at=time.time(), spread=0.0)
                return Shown(output_at=candidates[-1], seen_at=time.time(), spread=candidates[-1] - candidates[0])
            last_miss = started
            self.wait_beyond(seen, max(0.0, deadline - time.time()))
        return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
