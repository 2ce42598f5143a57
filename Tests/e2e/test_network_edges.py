"""The network edges of the answer path, through the real binary: endpoints that never stop answering
(`timeline reply` to a webhook and to a reply queue, `timeline ask`) end in bounded time and memory with a
clear error; webhooks to private or metadata addresses are refused, by name before connecting and by the
connected address after (a network namespace made by the test, with its own /etc/hosts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from hostile_server import EndlessServer
from test_human_in_the_loop import wait_for_task
from timeline_testing.waiting import wait_until

REPO_ROOT = Path(__file__).resolve().parents[2]
AGENT_TOOL = REPO_ROOT / "agent-tool"
if str(AGENT_TOOL) not in sys.path:
    sys.path.insert(0, str(AGENT_TOOL))

from event_builder import new_event  # noqa: E402
from publish_event import publish_dict  # noqa: E402

PEAK_RSS_LIMIT_MIB = 200
HOSTILE_SERVER = Path(__file__).resolve().parent / "hostile_server.py"


def run_measured(args, env, timeout=60.0):
    """Runs `args`; returns (exit code, stdout, stderr, the child's peak RSS in MiB, seconds taken)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = subprocess.Popen(args, env=env, stdout=out, stderr=err)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                child.kill()
                os.wait4(child.pid, 0)
                child.returncode = -9
                pytest.fail(f"{args[1]} did not end within {timeout} s")
            time.sleep(0.05)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (child.returncode, out.read().decode(), err.read().decode(), usage.ru_maxrss / 1024,
                time.monotonic() - started)


def ask_event(task_id, **extra):
    return new_event("Approve release?", "needs_input", "releaser", task_id=task_id, extra=extra)


@pytest.mark.parametrize("mode", ["chunked", "length", "headers"])
def test_reply_to_an_endless_webhook_stops_reading(mode, queue, sqs, run_timeline, timeline_bin, e2e_env, db_path):
    with EndlessServer(mode) as hook:
        publish_dict(ask_event("rel-1", actions=[{"id": "approve", "label": "Approve", "url": hook.endpoint + "/hook"}]),
                     queue_url=queue.url, client=sqs)
        wait_for_task(run_timeline, queue, db_path, "rel-1")
        code, out, err, peak, seconds = run_measured(
            [timeline_bin, "reply", "rel-1", "--action", "approve", "--db", db_path], e2e_env)
    assert code == 1, (out, err)
    assert f'not sent "Approve" to {hook.endpoint}/hook' in err and "stopped reading" in err, err
    assert peak < PEAK_RSS_LIMIT_MIB, f"peak RSS {peak:.0f} MiB"
    assert seconds < 30


def test_reply_to_an_endless_reply_queue_endpoint_stops_reading(queue, sqs, run_timeline, timeline_bin, e2e_env,
                                                                 db_path):
    with EndlessServer("chunked") as endpoint:
        replies = endpoint.endpoint + "/000000000000/replies"
        publish_dict(ask_event("rel-2", actions=[{"id": "go", "label": "Go"}], reply_to=replies),
                     queue_url=queue.url, client=sqs)
        wait_for_task(run_timeline, queue, db_path, "rel-2")
        # The endless server is the configured endpoint: a reply_to there may be signed, and its answer is capped.
        code, out, err, peak, seconds = run_measured(
            [timeline_bin, "reply", "rel-2", "--action", "go", "--db", db_path, "--region", queue.region,
             "--endpoint-url", endpoint.endpoint], e2e_env)
    assert code == 1, (out, err)
    assert 'not sent "Go" to queue replies' in err and "passed 1048576 bytes: stopped reading" in err, err
    assert peak < PEAK_RSS_LIMIT_MIB, f"peak RSS {peak:.0f} MiB"
    assert seconds < 30


def test_ask_against_an_endless_reply_queue_endpoint_stops_reading(queue, timeline_bin, e2e_env):
    with EndlessServer("chunked") as endpoint:
        code, out, err, peak, seconds = run_measured(
            [timeline_bin, "ask", "--title", "Deploy?", "--action", "yes:Yes", "--agent-id", "a",
             "--reply-queue-url", endpoint.endpoint + "/000000000000/replies", "--timeout", "60",
             "--queue-url", queue.url, "--region", queue.region], e2e_env)
    assert code == 1, (out, err)
    assert out == "" and f"passed {32 * 1024 * 1024} bytes: stopped reading" in err, err
    assert peak < PEAK_RSS_LIMIT_MIB, f"peak RSS {peak:.0f} MiB"
    assert seconds < 40


def test_an_event_naming_a_metadata_webhook_is_rejected_with_the_reason(queue, sqs, run_timeline, db_path):
    # Sent raw: publish_dict validates, and refuses it for the same reason.
    sqs.send_message(QueueUrl=queue.url, MessageBody=json.dumps(
        ask_event("meta-1", actions=[{"id": "x", "label": "X", "url": "https://[::ffff:169.254.169.254]/"}])))
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        run_timeline("drain", "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--region", queue.region,
                     "--db", db_path, timeout=60)
        rejected = run_timeline("rejected", "--db", db_path)
        if "link-local" in rejected.stdout:
            break
        time.sleep(0.3)
    assert "[::ffff:169.254.169.254] is a link-local address" in rejected.stdout, rejected.stdout


# ------------------------------------------------------------------- a network namespace made by the test

class Namespace:
    """`ip netns` NAME with loopback up and a veth pair whose end `tl0` owns `addresses`, and an /etc/hosts
    (`/etc/netns/NAME/hosts`) mapping `names`. Traffic to those addresses never leaves the namespace."""

    def __init__(self, addresses, names):
        self.name = "tl-edges-" + uuid.uuid4().hex[:8]
        self.etc = Path("/etc/netns") / self.name
        self.processes = []
        try:
            self.ip("netns", "add", self.name, inside=False)
        except (OSError, subprocess.CalledProcessError) as error:
            pytest.skip(f"ip netns is not permitted here: {error}")
        self.etc.mkdir(parents=True)
        (self.etc / "hosts").write_text("127.0.0.1 localhost\n" + "".join(f"{a} {n}\n" for n, a in names.items()))
        self.ip("link", "set", "lo", "up")
        self.ip("link", "add", "tl0", "type", "veth", "peer", "name", "tl1")
        for address in addresses:
            self.ip("addr", "add", address + "/32", "dev", "tl0")
        self.ip("link", "set", "tl0", "up")
        self.ip("link", "set", "tl1", "up")

    def ip(self, *args, inside=True):
        prefix = ["ip", "netns", "exec", self.name, "ip"] if inside else ["ip"]
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=10)

    def command(self, args):
        return ["ip", "netns", "exec", self.name, *args]

    def capture(self, host, port, log, cert=None, key=None):
        """Starts a capture server inside the namespace; returns once it listens."""
        args = [sys.executable, str(HOSTILE_SERVER), "capture", host, str(port), str(log)]
        child = subprocess.Popen(self.command(args + ([cert, key] if cert else [])), stdout=subprocess.PIPE, text=True)
        self.processes.append(child)
        assert child.stdout.readline().strip() == "ready"

    def close(self):
        for child in self.processes:
            child.kill()
            child.wait()
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True)
        for item in self.etc.glob("**/*"):
            if item.is_file():
                item.unlink()
        for folder in sorted(self.etc.glob("**/"), key=lambda p: len(str(p)), reverse=True):
            folder.rmdir()
        try:
            self.etc.parent.rmdir()  # /etc/netns, when no other namespace uses it
        except OSError:
            pass


@pytest.fixture
def namespace():
    made = []

    def make(addresses, names):
        made.append(Namespace(addresses, names))
        return made[-1]

    yield make
    for ns in made:
        ns.close()


def make_certificate(folder: Path, name: str):
    """A test CA and a certificate for `name` signed by it: (ca.pem, cert.pem, key.pem)."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=folder, timeout=30)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=timeline test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.csr", "-subj", f"/CN={name}")
    (folder / "ext.cnf").write_text(f"subjectAltName=DNS:{name}\n")
    openssl("x509", "-req", "-in", "cert.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "cert.pem", "-days", "2", "-extfile", "ext.cnf")
    return folder / "ca.pem", folder / "cert.pem", folder / "key.pem"


def captured(log: Path):
    return [line for line in log.read_text().splitlines()] if log.exists() else []


def approve_in_namespace(ns, task_id, url, queue, sqs, run_timeline, timeline_bin, env, db_path):
    """Publishes a question whose Approve action posts to `url`, then answers it with `timeline reply` run
    inside the namespace `ns` with `env`; the finished process."""
    publish_dict(ask_event(task_id, actions=[{"id": "approve", "label": "Approve", "url": url}]),
                 queue_url=queue.url, client=sqs)
    wait_for_task(run_timeline, queue, db_path, task_id)
    return subprocess.run(ns.command([timeline_bin, "reply", task_id, "--action", "approve", "--db", db_path]),
                          env=env, capture_output=True, text=True, timeout=60)


def test_a_webhook_name_that_resolves_to_metadata_sends_nothing(namespace, queue, sqs, run_timeline, timeline_bin,
                                                                 e2e_env, db_path, tmp_path):
    """https://hook.test resolves (the namespace's /etc/hosts) to 169.254.169.254, owned by a capture server
    inside the namespace that speaks TLS with a certificate the namespace trusts: only the connected-address
    check stands between the reply and it."""
    ns = namespace(["169.254.169.254"], {"hook.test": "169.254.169.254"})
    ca, cert, key = make_certificate(tmp_path, "hook.test")
    (ns.etc / "ssl" / "certs").mkdir(parents=True)  # `ip netns exec` mounts it over /etc/ssl
    (ns.etc / "ssl" / "certs" / "ca-certificates.crt").write_bytes(ca.read_bytes())
    log = tmp_path / "capture.log"
    ns.capture("169.254.169.254", 8443, log, str(cert), str(key))
    url = "https://hook.test:8443/hook"
    result = approve_in_namespace(ns, "hook-1", url, queue, sqs, run_timeline, timeline_bin, e2e_env, db_path)
    assert result.returncode == 1, result
    assert (f'not sent "Approve" to {url}: refusedAddress: refused to send to https://hook.test:8443: its connected address '
            "169.254.169.254 is a link-local address") in result.stderr, result.stderr
    # The capture server logs the connection once the binary closed it.
    wait_until(lambda: captured(log), message="the connection was not logged")
    assert all('"bytes": 0' in line for line in captured(log)), captured(log)


def test_a_private_webhook_is_refused_before_connecting_unless_allowed(namespace, queue, sqs, run_timeline,
                                                                         timeline_bin, e2e_env, db_path, tmp_path):
    ns = namespace(["10.203.0.1"], {})
    log = tmp_path / "capture.log"
    ns.capture("10.203.0.1", 8080, log)
    url = "https://10.203.0.1:8080/hook"
    result = approve_in_namespace(ns, "hook-2", url, queue, sqs, run_timeline, timeline_bin, e2e_env, db_path)
    assert result.returncode == 1, result
    assert (f'not sent "Approve" to {url}: refused webhook: 10.203.0.1 is a private address '
            "(webhook_allow_private = true allows it)") in result.stderr, result.stderr
    assert captured(log) == []  # no connection at all

    allowed = subprocess.run(ns.command([timeline_bin, "reply", "--resend", result.stderr.split("--resend ")[1].split("`")[0].strip(),
                                         "--db", db_path]),
                             env={**e2e_env, "TIMELINE_WEBHOOK_ALLOW_PRIVATE": "1"}, capture_output=True, text=True,
                             timeout=60)
    assert "refused webhook" not in allowed.stderr, allowed.stderr
    wait_until(lambda: captured(log), message="with webhook_allow_private the binary connects")


def test_loopback_requests_never_go_through_a_proxy(namespace, queue, sqs, run_timeline, timeline_bin, e2e_env,
                                                      db_path, tmp_path):
    """A plain-http request allowed because its host is loopback goes to loopback, not to `http_proxy` (which
    would carry it, and a signed request's credentials, off the machine)."""
    ns = namespace(["192.0.2.1"], {})
    proxy_log, hook_log = tmp_path / "proxy.log", tmp_path / "hook.log"
    ns.capture("192.0.2.1", 3128, proxy_log)
    ns.capture("127.0.0.1", 8080, hook_log)
    url = "http://127.0.0.1:8080/hook"
    proxied = {**e2e_env, "http_proxy": "http://192.0.2.1:3128", "HTTP_PROXY": "http://192.0.2.1:3128"}
    result = approve_in_namespace(ns, "hook-3", url, queue, sqs, run_timeline, timeline_bin, proxied, db_path)
    assert result.returncode == 0, result.stderr
    assert f'sent "Approve" to {url} (HTTP 204)' in result.stdout
    assert captured(proxy_log) == []
    assert len(captured(hook_log)) == 1

    # A signed SQS request to a local endpoint: its credentials stay on loopback too.
    published = subprocess.run(ns.command([timeline_bin, "publish", "--title", "t", "--status", "info", "--agent-id", "a",
                                           "--queue-url", "http://127.0.0.1:8080/000000000000/q",
                                           "--endpoint-url", "http://127.0.0.1:8080", "--region", "us-east-1"]),
                               env=proxied, capture_output=True, text=True, timeout=60)
    assert captured(proxy_log) == [], published.stderr
    assert len(captured(hook_log)) >= 2 and '"head": "POST / HTTP/1.1' in captured(hook_log)[1], captured(hook_log)


def test_config_shows_webhook_allow_private_and_refuses_a_wrong_value(run_timeline, e2e_env):
    shown = run_timeline("config", env={**e2e_env, "TIMELINE_WEBHOOK_ALLOW_PRIVATE": "1"})
    assert "webhooks      webhook_allow_private = true  (from TIMELINE_WEBHOOK_ALLOW_PRIVATE)" in shown.stdout, shown.stdout
    assert "webhooks      webhook_allow_private = false  (from default)" in run_timeline("config").stdout
    wrong = run_timeline("config", env={**e2e_env, "TIMELINE_WEBHOOK_ALLOW_PRIVATE": "yes"})
    assert wrong.returncode != 0 and "TIMELINE_WEBHOOK_ALLOW_PRIVATE=yes is not one of" in wrong.stderr, wrong.stderr
