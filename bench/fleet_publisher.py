"""One publisher of the sustained-ingest bench: sends its share of the fleet's events at a steady rate over one
kept-alive HTTP connection to a local SQS server: one SendMessage each (`--batch 1`, as a hook does), or
SendMessageBatch calls of up to `--batch` (at most 10) events, for a server whose ceiling is requests a second.

Publisher `index` of `publishers` sends its own stream of the `realistic_mix` events (200 agents, 20 events a
task, seeded by its index), stamped when sent. It prints "ready", reads the common start time from standard
input, and sends the k-th group of `batch` events at start + k * batch / rate; a publisher more than 0.5 s
behind carries on from the present instead of bursting (the rate achieved then says so). Requests carry a
well-formed SigV4 Authorization header with a dummy signature: local servers read the region and service
from it and do not check the signature, and signing in Python would cost the bench's 2 cores more than the
server. At the end it prints one JSON line: offered (events sent or tried), sent (accepted by the server),
failed, calls, worst lateness, CPU seconds.

    python bench/fleet_publisher.py --endpoint URL --queue-url URL --index 0 --publishers 50 --rate 20 --seconds 300 --batch 10  # then: ready; write the start time
"""

from __future__ import annotations

import argparse
import http.client
import json
import resource
import sys
import time
from urllib.parse import urlsplit

import realistic_mix

REGION = "us-east-1"


class RawSQS:
    """SendMessage and SendMessageBatch over http.client (JSON 1.0 protocol, POST / with QueueUrl in the body,
    as boto3 does)."""

    def __init__(self, endpoint: str, queue_url: str):
        parts = urlsplit(endpoint)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.queue_url = queue_url
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def send(self, body: str) -> bool:
        """True when the server accepted the message (HTTP 200); reconnects once after a dropped connection."""
        answer = self._call("SendMessage", {"QueueUrl": self.queue_url, "MessageBody": body})
        return answer is not None

    def send_batch(self, bodies: list[str]) -> int:
        """Sends up to 10 messages in one SendMessageBatch; returns how many the server accepted."""
        entries = [{"Id": f"e{i}", "MessageBody": body} for i, body in enumerate(bodies)]
        answer = self._call("SendMessageBatch", {"QueueUrl": self.queue_url, "Entries": entries})
        if answer is None:
            return 0
        try:
            return len(json.loads(answer).get("Successful", []))
        except ValueError:
            return 0

    def _call(self, action: str, request: dict) -> bytes | None:
        """The answer's body when the server answered HTTP 200, else None; reconnects once after a dropped
        connection."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        headers = {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": f"AmazonSQS.{action}",
            "X-Amz-Date": stamp,
            "Authorization": f"AWS4-HMAC-SHA256 Credential=test/{stamp[:8]}/{REGION}/sqs/aws4_request, "
                             f"SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature={'0' * 64}",
        }
        payload = json.dumps(request)
        for attempt in range(2):
            try:
                self.connection.request("POST", "/", payload, headers)
                response = self.connection.getresponse()
                body = response.read()
                return body if response.status == 200 else None
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    return None
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--queue-url", required=True)
    parser.add_argument("--index", type=int, required=True)
    parser.add_argument("--publishers", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True, help="events a second from this publisher")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=1,
                        help="events a call: 1 sends SendMessage, 2-10 SendMessageBatch")
    args = parser.parse_args()
    batch = min(10, max(1, args.batch))
    sqs = RawSQS(args.endpoint, args.queue_url)
    # This publisher's own stream of the mix (its agents' tasks are its own), stamped when sent.
    stream = realistic_mix.lines(sys.maxsize, seed=args.seed * 1_000 + args.index, stamp=lambda _: time.time_ns() // 1000)
    # Ready; every publisher starts at the time.time() the bench then writes to standard input.
    print("ready", flush=True)
    start = float(sys.stdin.readline())
    end = start + args.seconds
    offered = sent = calls = 0
    worst_late = 0.0
    k = 0
    interval = batch / args.rate  # between two calls of this publisher
    offset = args.index * interval / args.publishers  # spread the publishers' calls over each interval
    schedule = start + offset
    while True:
        due = schedule + k * interval
        if due >= end:
            break
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        else:
            worst_late = max(worst_late, -wait)
            if -wait > 0.5:  # too far behind: carry on from now (the rate achieved says so), no burst
                schedule = time.time() - k * interval
        if batch == 1:
            sent += sqs.send(next(stream))
        else:
            sent += sqs.send_batch([next(stream) for _ in range(batch)])
        offered += batch
        calls += 1
        k += 1
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"offered": offered, "sent": sent, "failed": offered - sent, "calls": calls,
                      "worst_late": worst_late, "seconds": time.time() - start,
                      "cpu": usage.ru_utime + usage.ru_stime}), flush=True)


if __name__ == "__main__":
    main()
