"""Shared fixtures for end-to-end tests: the real `timeline` binary, a real local SQS server (moto), a fresh
queue per test, agent-tool to publish, and tmux to drive the TUI. Everything started here is stopped here.

Fixtures
    sqs_endpoint   session  TIMELINE_TEST_SQS_ENDPOINT, else a moto server on 127.0.0.1 (free port) for the session
    sqs            session  boto3 SQS client for it (dummy credentials, us-east-1)
    queue          test     a fresh queue: .url .name .endpoint .region, .send_raw(body), .depth(), .receive_all()
    publish        test     publish(title, status, agent_id, **fields) -> message id, through agent-tool
    timeline_bin   session  $TIMELINE_BIN, else .build/release/timeline, else .build/debug/timeline
    e2e_env        test     environment for the binary: dummy credentials, UTF-8 locale, isolated HOME/XDG/AWS files
    db_path        test     a database path in the test's temp dir
    run_timeline   test     run_timeline(*args, timeout=60) -> CompletedProcess (text)
    connection_args test    ["--queue-url", URL, "--endpoint-url", URL, "--region", "us-east-1"]
    tmux           test     a private tmux server: start/send_keys/type/capture/resize/wait_for/exit_status/kill
    process_alive  function process_alive(pid) -> bool (zombies count as ended)
    wait_until     function wait_until(predicate, timeout=10, message=...) polls until true (no timing asserted)
    make_queue     test     make_queue(**attributes) -> LocalQueue with SQS attributes (e.g. VisibilityTimeout="2")
    fault_proxy    test     Tests/support/fault_proxy.py in front of the server: .endpoint .arm(mode, count) .stats()
                            .kill() (endpoint DOWN) .start() (UP again, same port)
    spawn_timeline test     spawn_timeline(*args) -> Popen in the background (.output()); SIGKILLed at the end
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "scripts"))
sys.path.insert(0, str(REPO_ROOT / "agent-tool"))

import sqs_server  # noqa: E402

DEFAULT_SIZE = (100, 30)


# ----------------------------------------------------------------------------------------- waiting

def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.1,
               message: str | Callable[[], str] = "condition not met") -> Any:
    """Poll `predicate` until it returns something truthy (returned); fail with `message` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            text = message() if callable(message) else message
            pytest.fail(f"timed out after {timeout}s: {text}")
        time.sleep(interval)


@pytest.fixture(name="wait_until")
def wait_until_fixture():
    return wait_until


@pytest.fixture(name="process_alive")
def process_alive_fixture():
    return process_alive


# ----------------------------------------------------------------------------------------- SQS

class LocalQueue:
    """A queue on the local server."""

    def __init__(self, client: Any, name: str, url: str, endpoint: str, region: str):
        self.client, self.name, self.url, self.endpoint, self.region = client, name, url, endpoint, region

    def send_raw(self, body: str) -> str:
        """Send a body as is (e.g. a malformed message); returns the message id."""
        return self.client.send_message(QueueUrl=self.url, MessageBody=body)["MessageId"]

    def depth(self) -> int:
        """Visible plus in-flight messages."""
        attributes = self.client.get_queue_attributes(
            QueueUrl=self.url,
            AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        )["Attributes"]
        return int(attributes["ApproximateNumberOfMessages"]) + int(
            attributes["ApproximateNumberOfMessagesNotVisible"])

    def receive_all(self) -> list[dict[str, Any]]:
        """Every message now visible (hidden for a minute afterwards, not deleted)."""
        messages: list[dict[str, Any]] = []
        while batch := self.client.receive_message(QueueUrl=self.url, MaxNumberOfMessages=10,
                                                   VisibilityTimeout=60, WaitTimeSeconds=0).get("Messages"):
            messages.extend(batch)
        return messages


@pytest.fixture(scope="session")
def sqs_endpoint():
    with sqs_server.local_sqs_endpoint() as endpoint:
        yield endpoint


@pytest.fixture(scope="session")
def sqs(sqs_endpoint):
    return sqs_server.sqs_client(sqs_endpoint)


@pytest.fixture
def queue(sqs, sqs_endpoint):
    name = sqs_server.unique_queue_name("e2e")
    url = sqs.create_queue(QueueName=name)["QueueUrl"]
    yield LocalQueue(sqs, name, url, sqs_endpoint, sqs_server.TEST_REGION)
    try:
        sqs.delete_queue(QueueUrl=url)
    except Exception:  # the server may have been stopped by the test on purpose
        pass


@pytest.fixture
def publish(queue, sqs):
    """publish(title, status, agent_id, **fields) -> message id, validated and sent by agent-tool."""
    from publish_event import publish_event

    def send(title: str, status: str, agent_id: str = "e2e-agent", **fields: Any) -> str:
        return publish_event(title, status, agent_id, queue_url=queue.url, client=sqs, **fields)

    return send


@pytest.fixture
def connection_args(queue):
    return ["--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region", queue.region]


# ----------------------------------------------------------------------------------------- the binary

@pytest.fixture(scope="session")
def timeline_bin() -> str:
    given = os.environ.get("TIMELINE_BIN")
    candidates = [Path(given)] if given else [REPO_ROOT / ".build" / "release" / "timeline",
                                              REPO_ROOT / ".build" / "debug" / "timeline"]
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    pytest.fail(f"timeline binary not found ({', '.join(map(str, candidates))}): run `make build` "
                "or set TIMELINE_BIN")


@pytest.fixture
def e2e_env(tmp_path) -> dict[str, str]:
    """A clean environment for the binary: nothing from the user's AWS setup, HOME or locale leaks in."""
    home = tmp_path / "home"
    home.mkdir()
    keep = {name: os.environ[name] for name in ("PATH", "TMPDIR") if name in os.environ}
    return {
        **keep,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "tmux-256color",
        **sqs_server.DUMMY_CREDENTIALS,
        "AWS_REGION": sqs_server.TEST_REGION,
        "AWS_CONFIG_FILE": str(home / "aws-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(home / "aws-credentials"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }


@pytest.fixture
def db_path(tmp_path) -> str:
    return str(tmp_path / "timeline.db")


@pytest.fixture
def run_timeline(timeline_bin, e2e_env):
    """run_timeline(*args, env=None, input=None, timeout=60) -> CompletedProcess with text output."""

    def run(*args: str, env: dict[str, str] | None = None, input: str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run([timeline_bin, *args], env=env or e2e_env, input=input, capture_output=True,
                              text=True, timeout=timeout)

    return run


# ----------------------------------------------------------------------------------------- tmux

def process_alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (exited, not yet reaped by its new parent) counts as ended."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


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

    def wait_for(self, expected: str | Callable[[str], Any], pane: str | None = None, timeout: float = 10.0,
                 colours: bool = False) -> str:
        """Wait until the screen contains `expected` (or `expected(screen)` is truthy); returns the screen."""
        check = (lambda screen: expected in screen) if isinstance(expected, str) else expected
        last = {"screen": ""}

        def ready() -> bool:
            last["screen"] = self.capture(pane, colours=colours)
            return bool(check(last["screen"]))

        wait_until(ready, timeout=timeout,
                   message=lambda: f"screen never matched {expected!r}; last screen:\n{last['screen']}")
        return last["screen"]

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


# ----------------------------------------------------------------------------------------- queues with attributes

@pytest.fixture
def make_queue(sqs, sqs_endpoint):
    """make_queue(**attributes) -> LocalQueue: a fresh queue with SQS attributes (e.g. VisibilityTimeout="3"),
    deleted after the test. A short visibility timeout brings back quickly the messages an abandoned long
    poll took (a killed poller, a killed proxy: the server still answers the orphaned request)."""
    urls: list[str] = []

    def create(**attributes: str) -> LocalQueue:
        name = sqs_server.unique_queue_name("e2e")
        url = sqs.create_queue(QueueName=name, Attributes=attributes)["QueueUrl"]
        urls.append(url)
        return LocalQueue(sqs, name, url, sqs_endpoint, sqs_server.TEST_REGION)

    yield create
    for url in urls:
        try:
            sqs.delete_queue(QueueUrl=url)
        except Exception:
            pass


# ----------------------------------------------------------------------------------------- fault proxy

FAULT_PROXY_SCRIPT = REPO_ROOT / "Tests" / "support" / "fault_proxy.py"


class FaultProxy:
    """Tests/support/fault_proxy.py in front of the local SQS server, on a fixed loopback port so that it can
    be killed (SIGKILL: the endpoint goes DOWN) and started again on the same port (UP again)."""

    def __init__(self, upstream: str):
        self.upstream = upstream
        self.port = sqs_server.free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._process: subprocess.Popen[str] | None = None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self, timeout: float = 10) -> None:
        """Start listening (again) on the same port; returns once it prints "ready"."""
        assert not self.running, "the proxy is already running"
        deadline = time.monotonic() + timeout
        while True:  # the port may sit in TIME_WAIT for a moment after a kill
            self._process = subprocess.Popen([sys.executable, str(FAULT_PROXY_SCRIPT), str(self.port), self.upstream],
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                             stdin=subprocess.DEVNULL)
            line = self._process.stdout.readline() if self._process.stdout else ""
            if line.strip() == "ready":
                return
            self._process.wait()
            if time.monotonic() > deadline:
                pytest.fail(f"fault proxy did not start on {self.port}: {self._process.stderr.read()}")
            time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL the proxy: connections drop, new ones are refused. Safe to call twice."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait(timeout=10)
        for stream in (self._process.stdout, self._process.stderr):
            if stream:
                stream.close()
        self._process = None

    def _control(self, body: dict[str, Any] | None = None) -> dict[str, Any]:
        import json
        import urllib.request
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.endpoint}/__fault__", data=data,
                                         method="GET" if data is None else "POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read() or b"{}")

    def arm(self, mode: str, count: int | None = None) -> None:
        """Answer the next `count` requests (all, without count) with a fault: throttle, server_error,
        html_error, drop; "pass" disarms."""
        self._control({"mode": mode, **({"count": count} if count is not None else {})})

    def stats(self) -> dict[str, Any]:
        """{"mode", "remaining", "faults_served", "forwarded"} since this proxy process started."""
        return self._control()


@pytest.fixture
def fault_proxy(sqs_endpoint):
    """A running FaultProxy in front of the session's SQS server; killed after the test."""
    proxy = FaultProxy(sqs_endpoint)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.kill()


# ----------------------------------------------------------------------------------------- background binary

@pytest.fixture
def spawn_timeline(timeline_bin, e2e_env, tmp_path):
    """spawn_timeline(*args, env=None) -> Popen (stdout/stderr to files: .stdout_path/.stderr_path; read with
    .output()). Every process still running at the end of the test is SIGKILLed by PID."""
    processes: list[subprocess.Popen[bytes]] = []

    def spawn(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        index = len(processes)
        out_path, err_path = tmp_path / f"timeline-{index}.out", tmp_path / f"timeline-{index}.err"
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            process = subprocess.Popen([timeline_bin, *args], env=env or e2e_env, stdout=out, stderr=err,
                                       stdin=subprocess.DEVNULL)
        process.stdout_path, process.stderr_path = out_path, err_path  # type: ignore[attr-defined]
        process.output = lambda: (out_path.read_text(errors="replace")  # type: ignore[attr-defined]
                                  + err_path.read_text(errors="replace"))
        processes.append(process)
        return process

    yield spawn
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
