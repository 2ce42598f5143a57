"""LocalStack (SQS only) in host mode, no Docker: started on 127.0.0.1 on a free port, stopped by PID.

The throughput benchmarks need it: moto scans the whole queue on every receive (quadratic in queue
depth), LocalStack does not. It runs from its own virtual environment (`make bench` creates
`.venv-localstack` with Python 3.13; LocalStack needs Python >= 3.12).

    python bench/localstack_server.py --python .venv-localstack/bin/python   # by hand: prints the endpoint
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PYTHON = REPO_ROOT / ".venv-localstack" / "bin" / "python"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sqs_is_ready(endpoint: str) -> bool:
    """True when LocalStack's health endpoint reports SQS available or running."""
    try:
        with urllib.request.urlopen(f"{endpoint}/_localstack/health", timeout=2) as response:
            health = json.load(response)
    except (urllib.error.URLError, OSError, ValueError):
        return False
    return health.get("services", {}).get("sqs") in ("available", "running")


class LocalStackServer:
    """One LocalStack process (in its own process group, so its helpers end with it)."""

    def __init__(self, python: str | os.PathLike[str] = DEFAULT_PYTHON, port: int | None = None,
                 services: str = "sqs"):
        self.python = os.path.abspath(python)  # the server runs in a temporary cwd
        self.port = port or free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.services = services  # e.g. "sqs,sns" for fan-out tests
        self._process: subprocess.Popen[bytes] | None = None
        self._directory = tempfile.mkdtemp(prefix="timeline-localstack-")
        self.log_path = Path(self._directory) / "localstack.log"

    def start(self, timeout: float = 120) -> "LocalStackServer":
        if not Path(self.python).exists():
            raise RuntimeError(f"{self.python} not found: `make bench` creates .venv-localstack")
        data = Path(self._directory) / "data"
        data.mkdir()
        env = {
            **os.environ,
            "GATEWAY_LISTEN": f"127.0.0.1:{self.port}",
            "LOCALSTACK_HOST": f"127.0.0.1:{self.port}",
            "SERVICES": self.services,
            # twisted: the server took 1.4 ms of CPU per message sent, received and deleted here against
            # hypercorn's 1.8, and halved the sustained bench's publish -> on screen at 400/s (it is one
            # Python process: what it serves bounds what the viewer can show). TIMELINE_BENCH_LOCALSTACK_GATEWAY
            # picks another for a comparison.
            "GATEWAY_SERVER": os.environ.get("TIMELINE_BENCH_LOCALSTACK_GATEWAY", "twisted"),
            "DNS_ADDRESS": "0",
            "SQS_ENDPOINT_STRATEGY": "path",
            "FILESYSTEM_ROOT": str(data),
            "LOCALSTACK_VOLUME_DIR": str(data),
            "EAGER_SERVICE_LOADING": "1",
        }
        with open(self.log_path, "wb") as log:
            self._process = subprocess.Popen(
                [self.python, "-m", "localstack.runtime.main"], cwd=self._directory, env=env,
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while not sqs_is_ready(self.endpoint):
            if self._process.poll() is not None:
                raise RuntimeError(f"LocalStack exited with {self._process.returncode}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"LocalStack not ready after {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.2)
        return self

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """SIGTERM to the process group this server leads, SIGKILL after 10 s; removes its files."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            except ProcessLookupError:
                pass
        shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self) -> "LocalStackServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=str(DEFAULT_PYTHON), help="Python of the LocalStack venv")
    parser.add_argument("--port", type=int, default=None)
    args = parser.parse_args()
    # SIGTERM (and SIGINT, ignored in background jobs otherwise) leave through the `with`: LocalStack stops.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, lambda *_: sys.exit(130))
    with LocalStackServer(args.python, args.port) as server:
        print(server.endpoint, flush=True)
        signal.pause()


if __name__ == "__main__":
    main()
