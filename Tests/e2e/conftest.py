"""Shared fixtures for end-to-end tests: the real `timeline` binary, a real local SQS server (moto), a fresh
queue per test, agent-tool to publish, and tmux to drive the TUI. Everything started here is stopped here.
The SQS fixtures, the tmux harness and the waits are the ones every suite shares (Tests/support/timeline_testing).

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
    take_turn      autouse  under pytest-xdist, a test marked `alone` runs while no other test does
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "Tests" / "support"))

from timeline_testing.alone import register_alone_marker, take_turn  # noqa: E402,F401  (autouse)
from timeline_testing.sqs_fixtures import make_queue, queue, sqs, sqs_endpoint  # noqa: E402,F401
from timeline_testing.events import reset_base_time  # noqa: E402
from timeline_testing.tmux import tmux  # noqa: E402,F401
from timeline_testing.waiting import process_alive, wait_until  # noqa: E402

import sqs_server  # noqa: E402  (scripts/, put on sys.path by timeline_testing)


def pytest_configure(config):
    register_alone_marker(config)


@pytest.fixture(autouse=True)
def fresh_event_base_time():
    """Events made with `make_event` are dated from five minutes before this test started."""
    reset_base_time()


@pytest.fixture(name="wait_until")
def wait_until_fixture():
    return wait_until


@pytest.fixture(name="process_alive")
def process_alive_fixture():
    return process_alive


# ----------------------------------------------------------------------------------------- SQS

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


def background_senders(home: Path) -> list[int]:
    """The hooks' background senders (`timeline hooks flush --background`, detached) running with this HOME."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit():
                continue
            arguments = (entry / "cmdline").read_bytes().split(b"\0")
            if b"--background" in arguments and f"HOME={home}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.fixture
def e2e_env(tmp_path) -> Iterator[dict[str, str]]:
    """A clean environment for the binary: nothing from the user's AWS setup, HOME or locale leaks in.
    A background sender a hook started with it (it may try again for minutes) is stopped at the end."""
    home = tmp_path / "home"
    home.mkdir()
    keep = {name: os.environ[name] for name in ("PATH", "TMPDIR") if name in os.environ}
    yield {
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
    for pid in background_senders(home):
        try:
            os.kill(pid, signal.SIGTERM)  # what it had not sent stays in the spool
        except ProcessLookupError:
            pass


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

    def arm(self, mode: str, count: int | None = None, seconds: float | None = None) -> None:
        """Answer the next `count` requests (all, without count) with a fault: throttle, server_error,
        html_error, drop, blackhole, slow (forwarded after `seconds`); "pass" disarms."""
        self._control({"mode": mode, **({"count": count} if count is not None else {}),
                       **({"seconds": seconds} if seconds is not None else {})})

    def stats(self) -> dict[str, Any]:
        """{"mode", "remaining", "faults_served", "forwarded"} since this proxy process started, and the
        ReceiveMessage calls held upstream now: "receives_in_flight", "long_polls_in_flight" (those that wait)."""
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
