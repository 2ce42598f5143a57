"""A local SQS server (moto) for tests: started on 127.0.0.1 on a free port, stopped by PID.

Used by the pytest fixtures (agent-tool/tests, Tests/e2e). `local_sqs_endpoint()` honours
TIMELINE_TEST_SQS_ENDPOINT (set by scripts/with-sqs-server.sh in `make test`) and otherwise starts its
own server for the duration of the `with` block.

    python3 scripts/sqs_server.py     # start one by hand: prints the endpoint, runs until Ctrl-C
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Iterator, NoReturn

REPO_ROOT = Path(__file__).resolve().parent.parent
TEST_REGION = "us-east-1"
# moto ignores the values; a request must still be signed for moto to route it to SQS.
DUMMY_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}


def moto_server_path() -> str:
    """`.venv/bin/moto_server` if the project venv has it, else the one on PATH."""
    venv = REPO_ROOT / ".venv" / "bin" / "moto_server"
    if venv.is_file() and os.access(venv, os.X_OK):
        return str(venv)
    found = shutil.which("moto_server")
    if not found:
        raise RuntimeError("moto_server not found: run `make deps` (it installs moto[server] into .venv)")
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def is_healthy(endpoint: str) -> bool:
    """True when moto's management API answers."""
    try:
        with urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


class MotoServer:
    """One moto_server process. Use as a context manager, or call start() and stop()."""

    def __init__(self, port: int | None = None, extra_env: dict[str, str] | None = None):
        self.port = port or free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self._extra_env = extra_env or {}
        self._process: subprocess.Popen[bytes] | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="moto-", suffix=".log", delete=False)

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def start(self, timeout: float = 20) -> "MotoServer":
        env = {**os.environ, **self._extra_env}
        self._process = subprocess.Popen(
            [moto_server_path(), "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
        )
        deadline = time.monotonic() + timeout
        while not is_healthy(self.endpoint):
            if self._process.poll() is not None:
                self._fail_start("moto_server exited at start")
            if time.monotonic() > deadline:
                self._fail_start(f"moto_server did not answer within {timeout}s")
            time.sleep(0.05)
        return self

    def _fail_start(self, reason: str) -> NoReturn:
        """Stop what was started and raise with the server's own words (read before stop() removes the log)."""
        log = self.log_text()
        self.stop()
        raise RuntimeError(f"{reason}:\n{log}")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and remove its log."""
        if self._process and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        self._log.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self._log.name)

    def log_text(self) -> str:
        self._log.flush()
        with open(self._log.name, encoding="utf-8", errors="replace") as handle:
            return handle.read()[-4000:]

    def __enter__(self) -> "MotoServer":
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


@contextlib.contextmanager
def local_sqs_endpoint() -> Iterator[str]:
    """TIMELINE_TEST_SQS_ENDPOINT if set, else a moto server started here (and stopped afterwards)."""
    given = os.environ.get("TIMELINE_TEST_SQS_ENDPOINT")
    if given:
        yield given.rstrip("/")
        return
    with MotoServer() as server:
        yield server.endpoint


def sqs_client(endpoint: str, region: str = TEST_REGION):
    """A boto3 SQS client for the local server, with dummy credentials (moto accepts any)."""
    import boto3  # imported late: the e2e fixtures that never touch SQS need no boto3

    return boto3.session.Session().client(
        "sqs", endpoint_url=endpoint, region_name=region,
        aws_access_key_id=DUMMY_CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=DUMMY_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
    )


def unique_queue_name(prefix: str = "timeline-test") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def main() -> int:
    with MotoServer() as server:
        print(server.endpoint, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())
