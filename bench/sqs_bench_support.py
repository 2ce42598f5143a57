"""Shared pieces of the SQS benchmarks: boto3 clients for a local server, valid events, queue filling,
and running a command while measuring its wall time and CPU seconds."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone

import boto3
from botocore.config import Config

REGION = "us-east-1"
# Local servers ignore the values; requests are still signed, as with AWS.
CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}
STATUSES = ["info", "in_progress", "success", "warning", "error"]
CATEGORIES = ["deploy", "code-review", "ci", "migration", "security"]


def child_environment() -> dict[str, str]:
    """The environment for `timeline` and the boto3 consumer: dummy credentials, no AWS files, no proxy."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AWS_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env.update(CREDENTIALS)
    env["AWS_CONFIG_FILE"] = os.devnull
    env["AWS_SHARED_CREDENTIALS_FILE"] = os.devnull
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


def sqs_client(endpoint: str, pool: int = 16):
    """A boto3 SQS client for a local server."""
    return boto3.client(
        "sqs", endpoint_url=endpoint, region_name=REGION,
        aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        config=Config(max_pool_connections=pool, retries={"max_attempts": 5, "mode": "standard"}),
    )


def create_queue(client, prefix: str) -> str:
    """A new, empty queue with a unique name; returns its URL."""
    return client.create_queue(QueueName=f"{prefix}-{uuid.uuid4().hex[:12]}")["QueueUrl"]


def queue_depth(client, queue_url: str) -> int:
    """Visible + in-flight messages."""
    attributes = client.get_queue_attributes(
        QueueUrl=queue_url,
        AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"]) + int(attributes["ApproximateNumberOfMessagesNotVisible"])


def event_payload(n: int, event_id: str | None = None) -> dict:
    """One valid event as agents publish it (~350 bytes of JSON)."""
    status = STATUSES[n % len(STATUSES)]
    payload = {
        "id": event_id or str(uuid.uuid4()),
        "agent_id": f"agent-{n % 25}",
        "task_id": f"task-{n // 4}",
        "title": f"Step {n % 17} of the bench task {n // 4}",
        "body": f"Processed {n * 7 % 10_000} items with {n % 50} warnings; next: verify outputs and report back.",
        "status": status,
        "category": CATEGORIES[n % len(CATEGORIES)],
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z"),
    }
    if status == "in_progress":
        payload["progress"] = n % 101
    return payload


def fill_queue(endpoint: str, queue_url: str, count: int, threads: int = 8) -> float:
    """Sends `count` valid events with SendMessageBatch from several threads; returns the seconds taken."""
    client = sqs_client(endpoint, pool=threads)

    def send(start: int) -> None:
        entries = [{"Id": str(i), "MessageBody": json.dumps(event_payload(start + i))}
                   for i in range(min(10, count - start))]
        response = client.send_message_batch(QueueUrl=queue_url, Entries=entries)
        if response.get("Failed"):
            raise RuntimeError(f"SendMessageBatch failed: {response['Failed'][:1]}")

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(send, range(0, count, 10)))
    return time.perf_counter() - started


@dataclass
class Measured:
    """A finished command: wall seconds, CPU seconds (user + system of it and its children), output."""
    wall: float
    cpu: float
    user: float
    system: float
    returncode: int
    stdout: str
    stderr: str


def run_measured(command: list[str], env: dict[str, str], timeout: float = 600) -> Measured:
    """Runs a command to completion; CPU from RUSAGE_CHILDREN deltas (the waited-for process tree)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    completed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout,
                               stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user = after.ru_utime - before.ru_utime
    system = after.ru_stime - before.ru_stime
    return Measured(wall, user + system, user, system, completed.returncode, completed.stdout, completed.stderr)


def loop_wakeups(pid: int) -> int:
    """How often a viewer's main thread has slept and woken so far (its voluntary context switches: the terminal
    loop sleeps in poll(2) on that thread, so each wake is one; a lock wait counts too); 0 once it is gone."""
    try:
        status = open(f"/proc/{pid}/task/{pid}/status").read()
    except OSError:
        return 0
    return sum(int(line.split()[1]) for line in status.splitlines()
               if line.startswith("voluntary_ctxt_switches"))


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * (len(sorted_values) - 1)))))
    return sorted_values[index]
