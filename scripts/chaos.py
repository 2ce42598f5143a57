#!/usr/bin/env python3
"""Chaos run: `timeline poll` stores a stream of events while everything around it fails, then the store is
checked against what was published.

Faults, each at a random moment in its own slot (seeded: `--seed` replays a run):
  * SIGKILL of `timeline poll` (`--kills` times), restarted a moment later;
  * the endpoint refuses connections (the fault proxy is stopped, then started again on the same port);
  * the endpoint is black-holed (the proxy reads requests and never answers);
  * the endpoint throttles (ThrottlingException for a while);
  * the disk holding the database fills up (a small tmpfs; skipped, and said so, when it cannot be mounted).

The queue has a dead-letter queue with maxReceiveCount 4: a message received a 5th time would move there.
Asserts: exactly N events stored, 0 lost, 0 duplicated (no event stored twice, none unknown), each task's
newest event shown, no rejected message, the dead-letter queue empty and the highest receive count seen
below 5. Prints the figures.

    .venv/bin/python scripts/chaos.py --timeline .build/release/timeline --events 10000 --localstack
    .venv/bin/python scripts/chaos.py --timeline .build/debug/timeline --endpoint http://127.0.0.1:PORT --events 300
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FAULT_PROXY = REPO_ROOT / "Tests" / "support" / "fault_proxy.py"
REGION = "us-east-1"
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}
MAX_RECEIVE_COUNT = 4  # the redrive policy: a 5th receive moves the message to the dead-letter queue


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sqs_client(endpoint: str):
    import boto3
    from botocore.config import Config

    return boto3.client("sqs", endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
                        config=Config(max_pool_connections=16, retries={"max_attempts": 8, "mode": "standard"}))


def queue_depth(sqs, url: str) -> int:
    attributes = sqs.get_queue_attributes(
        QueueUrl=url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(attributes["ApproximateNumberOfMessagesNotVisible"])


def make_events(count: int, rng: random.Random) -> list[dict]:
    """`count` events over count/10 tasks (10 steps each, increasing timestamps), in a shuffled order."""
    base = datetime(2026, 11, 22, 8, 0, tzinfo=timezone.utc)
    tasks = max(1, count // 10)
    events = []
    for n in range(count):
        task, step = n % tasks, n // tasks
        stamp = (base + timedelta(seconds=step * 60 + task * 0.001)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        events.append({"id": str(uuid.uuid4()), "agent_id": f"agent-{task % 7}", "task_id": f"chaos-task-{task}",
                       "title": f"task {task} step {step}", "status": "in_progress", "timestamp": stamp,
                       "body": "chaos " * 20})
    rng.shuffle(events)
    return events


class FaultProxy:
    """Tests/support/fault_proxy.py on a fixed port, stoppable (refused) and restartable."""

    def __init__(self, upstream: str):
        self.port = free_port()
        self.upstream = upstream
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(FAULT_PROXY), str(self.port), self.upstream],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.process.stdout.readline().strip() == "ready", "fault proxy did not start"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def arm(self, mode: str, count: int | None = None) -> None:
        body = json.dumps({"mode": mode, **({"count": count} if count else {})}).encode()
        urllib.request.urlopen(urllib.request.Request(f"{self.endpoint}/__fault__", data=body, method="POST"),
                               timeout=5).read()


class Disk:
    """The database's directory: a tmpfs that can be filled when mounting works, else a plain directory."""

    def __init__(self, size_mib: int):
        self.path = tempfile.mkdtemp(prefix="timeline-chaos-")
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mib}m,mode=0700", "tmpfs", self.path],
                                 capture_output=True)
        self.can_fill = mounted.returncode == 0
        self.filler = os.path.join(self.path, "filler")

    def fill(self) -> None:
        with open(self.filler, "wb") as out:
            try:
                while True:
                    out.write(b"\0" * (1 << 20))
                    out.flush()
            except OSError:
                pass

    def free(self) -> None:
        if os.path.exists(self.filler):
            os.remove(self.filler)

    def close(self) -> None:
        if self.can_fill:
            subprocess.run(["umount", "-l", self.path], capture_output=True)
        subprocess.run(["rm", "-rf", self.path], capture_output=True)


class Poller:
    """`timeline poll -v` through the proxy, its output appended to one log."""

    def __init__(self, timeline: str, queue_url: str, endpoint: str, db: str, log_path: str):
        self.command = [timeline, "poll", "-v", "--concurrency", "4", "--queue-url", queue_url,
                        "--endpoint-url", endpoint, "--region", REGION, "--db", db]
        self.log_path = log_path
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        self.env.update(CREDENTIALS, AWS_CONFIG_FILE=os.devnull, AWS_SHARED_CREDENTIALS_FILE=os.devnull,
                        AWS_EC2_METADATA_DISABLED="true", NO_PROXY="127.0.0.1,localhost")
        self.process = None
        self.start()

    def start(self) -> None:
        with open(self.log_path, "a") as log:
            self.process = subprocess.Popen(self.command, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
            return -9


def publish(sqs, queue_url: str, events: list[dict], duration: float, failures: list[str]) -> None:
    """Sends `events` in batches of 10, spread over `duration` seconds (straight to the server)."""
    batches = [events[i:i + 10] for i in range(0, len(events), 10)]
    pause = duration / max(1, len(batches))
    for batch in batches:
        started = time.monotonic()
        entries = [{"Id": f"e{i}", "MessageBody": json.dumps(e)} for i, e in enumerate(batch)]
        for _ in range(10):
            result = sqs.send_message_batch(QueueUrl=queue_url, Entries=entries)
            failed = {f["Id"] for f in result.get("Failed", [])}
            entries = [entry for entry in entries if entry["Id"] in failed]
            if not entries:
                break
        if entries:
            failures.append(f"could not publish {len(entries)} events")
        time.sleep(max(0.0, pause - (time.monotonic() - started)))


def run(timeline: str, endpoint: str, events_count: int, kills: int, seed: int, duration: float,
        settle_timeout: float, say=print) -> dict:
    rng = random.Random(seed)
    sqs = sqs_client(endpoint)
    suffix = uuid.uuid4().hex[:10]
    dlq_url = sqs.create_queue(QueueName=f"chaos-dlq-{suffix}")["QueueUrl"]
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq_url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    queue_url = sqs.create_queue(QueueName=f"chaos-{suffix}", Attributes={
        "VisibilityTimeout": "5",
        "RedrivePolicy": json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": str(MAX_RECEIVE_COUNT)}),
    })["QueueUrl"]
    events = make_events(events_count, rng)
    work = tempfile.mkdtemp(prefix="timeline-chaos-logs-")
    log_path = os.path.join(work, "poll.log")
    disk = Disk(size_mib=max(32, events_count // 150))
    proxy = FaultProxy(endpoint)
    db = os.path.join(disk.path, "timeline.db")
    poller = Poller(timeline, queue_url, proxy.endpoint, db, log_path)
    publish_failures: list[str] = []
    publisher = threading.Thread(target=publish, args=(sqs, queue_url, events, duration * 0.8, publish_failures))
    started = time.monotonic()
    publisher.start()

    faults = ["kill"] * kills + ["refused", "blackhole", "throttle"] + (["disk full"] if disk.can_fill else [])
    rng.shuffle(faults)
    # The endpoint is cut twice: first refused, later black-holed.
    refused, blackhole = faults.index("refused"), faults.index("blackhole")
    faults[min(refused, blackhole)], faults[max(refused, blackhole)] = "refused", "blackhole"
    slot = duration / len(faults)
    done_faults: list[str] = []
    try:
        for index, fault in enumerate(faults):
            at = started + index * slot + rng.uniform(0.1, 0.4) * slot
            time.sleep(max(0.0, at - time.monotonic()))
            hold = min(6.0, slot * 0.5)
            if fault == "kill":
                poller.kill()
                time.sleep(rng.uniform(0.2, 1.0))
                poller.start()
            elif fault == "refused":
                proxy.stop()
                time.sleep(hold)
                proxy.start()
            elif fault == "blackhole":
                proxy.arm("blackhole")
                time.sleep(hold)
                proxy.arm("pass")
            elif fault == "throttle":
                proxy.arm("throttle", count=40)
            elif fault == "disk full":
                disk.fill()
                time.sleep(hold)
                disk.free()
            done_faults.append(fault)
            say(f"  {time.monotonic() - started:6.1f}s  {fault}")
        publisher.join()
        deadline = time.monotonic() + settle_timeout
        stored = 0
        while time.monotonic() < deadline:
            stored = count_events(db)
            if stored >= events_count and queue_depth(sqs, queue_url) == 0:
                break
            time.sleep(0.5)
        time.sleep(1.0)  # a poller restarted by the last fault has its signal handler in place
        exit_code = poller.stop()
        elapsed = time.monotonic() - started
        figures = check(db, events, log_path, sqs, dlq_url)
        figures.update(published=events_count, faults=", ".join(done_faults), poll_exit_code=exit_code,
                       seconds=round(elapsed, 1), publish_failures=len(publish_failures), log=log_path,
                       disk_full="injected" if disk.can_fill else "skipped (cannot mount a tmpfs)")
        return figures
    finally:
        if poller.process.poll() is None:
            poller.kill()
        proxy.stop()
        disk.close()


def count_events(db: str) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as store:
            return store.execute("SELECT count(*) FROM events").fetchone()[0]
    except sqlite3.Error:
        return 0


def check(db: str, events: list[dict], log_path: str, sqs, dlq_url: str) -> dict:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as store:
        ids = [row[0] for row in store.execute("SELECT id FROM events")]
        shown = dict(store.execute("SELECT t.task_id, e.id FROM timeline t JOIN events e ON e.seq = t.seq"))
        rejected = store.execute("SELECT count(*) FROM rejected").fetchone()[0]
    published = {e["id"] for e in events}
    newest: dict[str, dict] = {}
    for event in events:
        if event["task_id"] not in newest or event["timestamp"] > newest[event["task_id"]]["timestamp"]:
            newest[event["task_id"]] = event
    log = Path(log_path).read_text(errors="replace")
    receive_counts = [int(n) for n in re.findall(r"max receive count (\d+)", log)]
    return {
        "stored": len(ids),
        "lost": len(published - set(ids)),
        "duplicated": len(ids) - len(set(ids)) + len(set(ids) - published),
        "rejected": rejected,
        "tasks": len(newest),
        "newest_shown_wrong": sum(1 for task, event in newest.items() if shown.get(task) != event["id"]),
        "max_receive_count": max(receive_counts, default=0),
        "dead_lettered": queue_depth(sqs, dlq_url),
        "store_failures_logged": log.count("not stored, held and retried"),
        "redelivered_absorbed": sum(int(n) for n in re.findall(r"duplicates (\d+), rejected \d+, deleted", log)),
    }


def failures_in(figures: dict) -> list[str]:
    problems = []
    if figures["stored"] != figures["published"]:
        problems.append(f"stored {figures['stored']} of {figures['published']}")
    for name in ("lost", "duplicated", "rejected", "newest_shown_wrong", "dead_lettered", "publish_failures"):
        if figures[name]:
            problems.append(f"{name}: {figures[name]}")
    if figures["max_receive_count"] > MAX_RECEIVE_COUNT:
        problems.append(f"a message was received {figures['max_receive_count']} times")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeline", default=str(REPO_ROOT / ".build" / "release" / "timeline"))
    parser.add_argument("--endpoint", help="an SQS endpoint (default: LocalStack with --localstack, else moto)")
    parser.add_argument("--localstack", action="store_true", help="start LocalStack (deep queues)")
    parser.add_argument("--localstack-python", default=str(REPO_ROOT / ".venv-localstack" / "bin" / "python"))
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--duration", type=float, default=None, help="seconds of faults (default: scaled)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    duration = args.duration or max(30.0, min(240.0, args.events / 50))
    say = lambda text: print(text, flush=True)  # noqa: E731

    def go(endpoint: str) -> int:
        say(f"chaos: {args.events} events, {args.kills} kills, seed {seed}, {duration:.0f}s of faults, endpoint {endpoint}")
        figures = run(args.timeline, endpoint, args.events, args.kills, seed, duration,
                      settle_timeout=max(120.0, args.events / 20), say=say)
        for name, value in figures.items():
            say(f"  {name:24} {value}")
        problems = failures_in(figures)
        say("chaos: PASS" if not problems else "chaos: FAIL: " + "; ".join(problems))
        return 0 if not problems else 1

    if args.endpoint:
        return go(args.endpoint)
    if args.localstack:
        sys.path.insert(0, str(REPO_ROOT / "bench"))
        from localstack_server import LocalStackServer

        with LocalStackServer(python=args.localstack_python) as server:
            return go(server.endpoint)
    sys.path.insert(0, str(REPO_ROOT / "scripts"))
    from sqs_server import local_sqs_endpoint

    with local_sqs_endpoint() as endpoint:
        return go(endpoint)


if __name__ == "__main__":
    sys.exit(main())
