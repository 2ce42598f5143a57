"""The one tmux harness of every pytest suite: a private tmux server per test (`Tmux`, fixture `tmux`) and
`TerminalProgram`, a program run in one of its panes by a shell that records the tty modes before and after
and the exit status, so that a quit, a signal or a crash can be checked for a restored terminal.

Screens are read with `tmux capture-pane` (plain, or with -e for colours); waits are bounded polls of the
screen, never timed assertions.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

from .waiting import process_alive, wait_until

DEFAULT_SIZE = (100, 30)


_TMUX_CONFIG = """\
set -g default-terminal "tmux-256color"
set -g status off
set -g remain-on-exit on
set -g escape-time 0
set -g history-limit 2000
"""


class Tmux:
    """A private tmux server (own socket, own config) holding one session; panes run the commands given.

    The first pane started is the default target of every method. `kill()` stops the server and any
    pane process still alive (by PID); the fixture calls it even when the test fails.
    """

    def __init__(self) -> None:
        self.socket = f"timeline-e2e-{uuid.uuid4().hex[:10]}"
        handle, self._config = tempfile.mkstemp(prefix="tmux-e2e-", suffix=".conf")
        with os.fdopen(handle, "w") as config:
            config.write(_TMUX_CONFIG)
        self.session = "e2e"
        self.default_pane: str | None = None
        self._pane_pids: list[int] = []

    def _tmux(self, *args: str, check: bool = True) -> str:
        completed = subprocess.run(["tmux", "-L", self.socket, "-f", self._config, "-u", *args],
                                   capture_output=True, text=True, timeout=15,
                                   env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        if check and completed.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {completed.stderr.strip()}")
        return completed.stdout

    def start(self, command: list[str] | str, *, env: dict[str, str] | None = None,
              width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1], cwd: str | None = None) -> str:
        """Run `command` in a new pane (the first call creates the session at width x height).

        `env`, when given, is the pane process's whole environment (TERM comes from tmux). Returns the pane id.
        """
        line = command if isinstance(command, str) else shlex.join(command)
        if env is not None:
            assignments = [f"{key}={value}" for key, value in env.items() if key != "TERM"]
            line = f"exec env -i TERM=tmux-256color {shlex.join(assignments)} {line}"
        if self.default_pane is None:
            output = self._tmux("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height),
                                "-P", "-F", "#{pane_id} #{pane_pid}", *(["-c", cwd] if cwd else []), line)
        else:
            output = self._tmux("new-window", "-t", self.session, "-P", "-F", "#{pane_id} #{pane_pid}",
                                *(["-c", cwd] if cwd else []), line)
        pane, pid = output.split()
        self._pane_pids.append(int(pid))
        if self.default_pane is None:
            self.default_pane = pane
        return pane

    def _target(self, pane: str | None) -> str:
        target = pane or self.default_pane
        if target is None:
            raise RuntimeError("no pane: call start() first")
        return target

    def send_keys(self, *keys: str, pane: str | None = None) -> None:
        """tmux key names or strings: send_keys("j"), send_keys("Enter"), send_keys("C-c")."""
        self._tmux("send-keys", "-t", self._target(pane), *keys)

    def type(self, text: str, pane: str | None = None) -> None:
        """Type text literally (no key-name interpretation)."""
        self._tmux("send-keys", "-t", self._target(pane), "-l", text)

    def paste(self, text: str, pane: str | None = None) -> None:
        """Paste text as a terminal would (paste-buffer -p: bracketed when the program asked for it)."""
        self._tmux("set-buffer", "-b", "e2e-paste", "--", text)
        self._tmux("paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", self._target(pane))

    def capture(self, pane: str | None = None, colours: bool = False) -> str:
        """The visible screen as text; with colours=True, including SGR escape sequences (capture-pane -e)."""
        return self._tmux("capture-pane", "-p", *(["-e"] if colours else []), "-t", self._target(pane))

    def lines(self, pane: str | None = None) -> list[str]:
        """The visible screen, one string per row, trailing blanks removed."""
        return self.capture(pane).rstrip("\n").split("\n")

    def resize(self, width: int, height: int, pane: str | None = None) -> None:
        """Resize the window holding the pane (the program gets SIGWINCH)."""
        self._tmux("resize-window", "-t", self._target(pane), "-x", str(width), "-y", str(height))

    def size(self, pane: str | None = None) -> tuple[int, int]:
        width, height = self._tmux("display-message", "-p", "-t", self._target(pane),
                                   "#{pane_width} #{pane_height}").split()
        return int(width), int(height)

    def exit_status(self, pane: str | None = None) -> int | None:
        """None while the pane's program runs; its exit status once it has ended (128+N for signal N)."""
        dead, status, signal_number = self._tmux("display-message", "-p", "-t", self._target(pane),
                                                 "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}"
                                                 ).strip().split("|")
        if dead != "1":
            return None
        if status:
            return int(status)
        if signal_number:
            return 128 + int(signal_number)
        # tmux saw the pane close but has not collected the status; it can miss a SIGCHLD (seen with
        # tmux 3.3a when the program's own children exit around the same moment), so nudge our own server.
        server_pid = int(self._tmux("display-message", "-p", "#{pid}").strip())
        os.kill(server_pid, signal.SIGCHLD)
        return None

    def stable_capture(self, pane: str | None = None, colours: bool = False, limit: float = 1.0) -> str:
        """A capture taken once the pane stopped changing (the program may be mid-update), or the last one
        after `limit` seconds (a spinner never stops)."""
        deadline = time.monotonic() + limit
        previous = self.capture(pane, colours=colours)
        while time.monotonic() < deadline:
            time.sleep(0.06)
            current = self.capture(pane, colours=colours)
            if current == previous:
                return current
            previous = current
        return previous

    def wait_for(self, expected: str | Callable[[str], Any], pane: str | None = None, timeout: float = 10.0,
                 colours: bool = False, stable: bool = False) -> str:
        """Wait until the screen contains `expected` (or `expected(screen)` is truthy); returns the screen.
        With `stable`, the match must also hold on a settled screen (`stable_capture`), which is returned."""
        check = (lambda screen: expected in screen) if isinstance(expected, str) else expected
        last = {"screen": ""}

        def ready() -> bool:
            last["screen"] = self.capture(pane, colours=colours)
            if not check(last["screen"]):
                return False
            if stable:
                last["screen"] = self.stable_capture(pane, colours=colours)
                return bool(check(last["screen"]))
            return True

        wait_until(ready, timeout=timeout, interval=0.05,
                   message=lambda: f"screen never matched {expected!r}; last screen:\n{last['screen']}")
        return last["screen"]

    def shown_at(self, text: str, timeout: float, pane: str | None = None) -> float | None:
        """`time.perf_counter()` when the screen first shows `text` (captured as fast as tmux answers), else
        None after `timeout` seconds: for benches that time how soon something reaches the screen."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if text in self.capture(pane):
                return time.perf_counter()
        return None

    def wait_exit(self, pane: str | None = None, timeout: float = 10.0) -> int:
        """Wait for the pane's program to end; returns its exit status."""
        return wait_until(lambda: (status := self.exit_status(pane)) is not None and (status,),
                          timeout=timeout, message="the program did not exit")[0]

    def kill(self) -> None:
        """Stop the tmux server, then any pane process that survived it (by PID). Safe to call twice."""
        self._tmux("kill-server", check=False)
        for pid in self._pane_pids:
            for _ in range(30):
                if not process_alive(pid):
                    break
                time.sleep(0.1)
            else:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    continue
                for _ in range(50):
                    if not process_alive(pid):
                        break
                    time.sleep(0.1)
        self._pane_pids.clear()
        try:
            os.unlink(self._config)
        except FileNotFoundError:
            pass


@pytest.fixture
def tmux():
    session = Tmux()
    try:
        yield session
    finally:
        session.kill()


class TerminalProgram:
    """A program in its own pane of `tmux`, wrapped by a shell that records the tty modes (`stty -g`) before
    and after it and its exit status, then prints TUI-EXITED and stays open (the screen can still be read).

    Waits use settled screens (`Tmux.wait_for(stable=True)`): a match is not taken from a half-drawn frame.
    """

    EXITED_MARK = "TUI-EXITED"

    def __init__(self, tmux: Tmux, command: list[str], env: dict[str, str], folder: Path,
                 width: int = DEFAULT_SIZE[0], height: int = DEFAULT_SIZE[1]):
        self.tmux = tmux
        tag = uuid.uuid4().hex[:8]
        self.before, self.after = folder / f"stty-before-{tag}", folder / f"stty-after-{tag}"
        self.exit_file = folder / f"exit-code-{tag}"
        quote = lambda path: shlex.quote(str(path))  # noqa: E731
        script = (f"stty -g > {quote(self.before)}; {shlex.join(command)}; echo $? > {quote(self.exit_file)}; "
                  f"stty -g > {quote(self.after)}; echo {self.EXITED_MARK}; sleep 600")
        self.pane = tmux.start(["sh", "-c", script], env=env, width=width, height=height)

    def screen(self, colours: bool = False) -> str:
        return self.tmux.capture(self.pane, colours=colours)

    def lines(self) -> list[str]:
        return self.screen().split("\n")

    def row_of(self, text: str, screen: str | None = None) -> int:
        """Screen line holding `text` (the header is line 0)."""
        lines = (screen if screen is not None else self.screen()).split("\n")
        return next(index for index, line in enumerate(lines) if text in line)

    def wait_for(self, expected: str | Callable[[str], Any], timeout: float = 15.0, colours: bool = False) -> str:
        return self.tmux.wait_for(expected, pane=self.pane, timeout=timeout, colours=colours, stable=True)

    def keys(self, *keys: str) -> None:
        self.tmux.send_keys(*keys, pane=self.pane)

    def type(self, text: str) -> None:
        self.tmux.type(text, pane=self.pane)

    def resize(self, width: int, height: int) -> None:
        self.tmux.resize(width, height, pane=self.pane)

    def alternate_screen_on(self) -> bool:
        return self.tmux._tmux("display-message", "-p", "-t", self.pane, "#{alternate_on}").strip() == "1"

    def pid(self, name: str = "timeline") -> int:
        """PID of the program: the wrapping shell's child whose executable is `name`."""
        shell = self.tmux._tmux("display-message", "-p", "-t", self.pane, "#{pane_pid}").strip()
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                parent = (proc / "stat").read_text().rsplit(")", 1)[1].split()[1]
                executable = (proc / "cmdline").read_bytes().split(b"\0")[0]
            except (OSError, IndexError):
                continue
            if parent == shell and os.path.basename(executable) == name.encode():
                return int(proc.name)
        pytest.fail(f"{name} not found under the pane's shell (pid {shell})")

    def exit_code(self, timeout: float = 10.0) -> int:
        """Wait for the program to end; its exit status (128+N for signal N)."""
        wait_until(lambda: self.exit_file.exists() and self.exit_file.read_text().strip(), timeout=timeout,
                   interval=0.05, message=lambda: f"the program did not exit; screen:\n{self.screen()}")
        return int(self.exit_file.read_text().strip())

    def terminal_modes_restored(self) -> bool:
        """The tty modes after the program ended equal those before it started."""
        wait_until(lambda: self.after.exists() and self.after.read_text().strip(), timeout=10,
                   message="the wrapper did not record the tty modes after the program")
        before = self.before.read_text().strip()
        return before != "" and before == self.after.read_text().strip()
