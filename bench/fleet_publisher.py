"""One publisher of the sustained-ingest bench: sends its share of the fleet's events at a steady rate, one
SendMessage each (as a hook does), over one kept-alive HTTP connection to a local SQS server.

Publisher `index` of `publishers` sends its own stream of the `realistic_mix` events (200 agents, 20 events a
task, seeded by its index), stamped when sent. It prints "ready", reads the common
start time from standard input, and sends the k-th event at start + k / rate; a publisher more than 0.5 s
behind carries on from the present instead of bursting (the rate achieved then says so). Requests carry a
well-formed SigV4 Authorization header with a dummy signature: local servers read the region and service
from it and do not check the signature, and signing in Python would cost the bench's 2 cores more than the
server. At the end it prints one JSON line: sent, failed, worst lateness, CPU seconds.

    python bench/fleet_publisher.py --endpoint URL --queue-url URL --index 0 --publishers 50 --rate 20 --seconds 300  # then: ready; write the start time
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
    """SendMessage over http.client (JSON 1.0 protocol, POST / with QueueUrl in the body, as boto3 does)."""

    def __init__(self, endpoint: str, queue_url: str):
        parts = urlsplit(endpoint)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.queue_url = queue_url
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def send(self, body: str) -> bool:
        """True when the server accepted the message (HTTP 200); reconnects once after a dropped connection."""
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        headers = {
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": "AmazonSQS.SendMessage",
            "X-Amz-Date": stamp,
            "Authorization": f"AWS4-HMAC-SHA256 Credential=test/{stamp[:8]}/{REGION}/sqs/aws4_request, "
                             f"SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature={'0' * 64}",
        }
        payload = json.dumps({"QueueUrl": self.queue_url, "MessageBody": body})
        for attempt in range(2):
            try:
                self.connection.request("POST", "/", payload, headers)
                response = self.connection.getresponse()
                response.read()
                return response.status == 200
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    return False
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--queue-url", required=True)
    parser.add_argument("--index", type=int, required=True)
    parser.add_argument("--publishers", type=int, required=True)
    parser.add_argument("--rate", type=float, required=True, help="events a second from this publisher")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sqs = RawSQS(args.endpoint, args.queue_url)
    # This publisher's own stream of the mix (its agents' tasks are its own), stamped when sent.
    stream = realistic_mix.lines(sys.maxsize, seed=args.seed * 1_000 + args.index, stamp=lambda _: time.time_ns() // 1000)
    # Ready; every publisher starts at the time.time() the bench then writes to standard input.
    print("ready", flush=True)
    start = float(sys.stdin.readline())
    end = start + args.seconds
    sent = failed = 0
    worst_late = 0.0
    k = 0
    offset = args.index / (args.publishers * args.rate)  # spread the publishers' sends over each interval
    schedule = start + offset
    while True:
        due = schedule + k / args.rate
        if due >= end:
            break
        wait = due - time.time()
        if wait > 0:
            time.sleep(wait)
        else:
            worst_late = max(worst_late, -wait)
            if -wait > 0.5:  # too far behind: carry on from now (the rate achieved says so), no burst
                schedule = time.time() - k / args.rate
        if sqs.send(next(stream)):
            sent += 1
        else:
            failed += 1
        k += 1
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"sent": sent, "failed": failed, "worst_late": worst_late, "seconds": time.time() - start,
                      "cpu": usage.ru_utime + usage.ru_stime}), flush=True)


if __name__ == "__main__":
    main()
