"""End-to-end tests of `timeline poll`, `drain` and `doctor`: the real binary against a real local SQS server
(moto), sometimes through Tests/support/fault_proxy.py, with the store checked in the SQLite file itself.

Nothing here asserts a duration except generous "prompt" bounds (a SIGTERM answered in < 5 s while a 20 s
long poll is in flight) and a request-rate bound that only a retry loop without backoff could exceed.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
import uuid

from sqs_helpers import StoreView, SteadyPublisher, make_event, send

SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY-e2e-SECRET-" + uuid.uuid4().hex
ACCESS_KEY = "AKIAE2ETESTKEY" + uuid.uuid4().hex[:6].upper()
SESSION_TOKEN = "FwoGZXIvYXdzE-e2e-TOKEN-" + uuid.uuid4().hex


def args_for(queue, endpoint=None, db=None):
    arguments = ["--queue-url", queue.url, "--endpoint-url", endpoint or queue.endpoint, "--region", queue.region]
    return arguments + (["--db", db] if db else [])


def stop(process, timeout=10.0) -> int:
    """SIGTERM, then the exit code (fails the test if it does not exit in `timeout`)."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"timeline did not exit within {timeout}s of SIGTERM:\n{process.output()}")


def many_events(count, tasks, prefix):
    """`count` events spread over `tasks` tasks, timestamps strictly increasing in publishing order."""
    return [make_event(f"{prefix} event {i}", ["info", "in_progress", "success", "warning", "error"][i % 5],
                       task_id=f"{prefix}-task-{i % tasks}", agent_id=f"agent-{i % 3}", offset=i * 0.001)
            for i in range(count)]


def expected_current_titles(events):
    """task_id -> title of its newest event (the one the timeline must show)."""
    newest = {}
    for event in events:
        if event["task_id"] not in newest or event["timestamp"] > newest[event["task_id"]]["timestamp"]:
            newest[event["task_id"]] = event
    return {task: event["title"] for task, event in newest.items()}


def summary_counts(text):
    """{"received": N, "stored": N, ...} from the last summary line (`received 3, stored 2, ...`)."""
    line = [line for line in text.splitlines() if "received " in line][-1]
    return {name: int(value) for name, value in re.findall(r"(received|stored|duplicates|rejected|deleted) (\d+)", line)}


def assert_stored_exactly_once(store, events):
    ids = store.event_ids()
    sent = [event["id"] for event in events]
    missing = set(sent) - set(ids)
    assert not missing, f"{len(missing)} events lost (e.g. {sorted(missing)[:3]})"
    assert len(ids) == len(set(ids)), "an event is stored twice"
    assert sorted(ids) == sorted(sent), "the store holds events that were never sent"
    assert store.current_titles() == expected_current_titles(events), "the timeline does not show the newest per task"


# ------------------------------------------------------------------------------------------- publish → poll → store → delete

def test_publish_poll_store_delete(queue, publish, spawn_timeline, run_timeline, db_path, wait_until):
    events = [make_event(f"round trip {i}", "in_progress", task_id=f"rt-{i}", offset=i) for i in range(4)]
    for event in events:
        send(queue, event)
    upsert = make_event("round trip 1 done", "success", task_id="rt-1", offset=100)
    send(queue, upsert)
    late = make_event("round trip 2, an older event arriving late", "info", task_id="rt-2", offset=-100)
    send(queue, late)
    queue.send_raw('{"id": "x", "title": "no status"}')
    store = StoreView(db_path)

    poller = spawn_timeline("poll", "-v", *args_for(queue, db=db_path))
    wait_until(lambda: store.event_count() == 6 and len(store.rejected()) == 1, timeout=20,
               message=lambda: f"not stored; poller said:\n{poller.output()}")
    wait_until(lambda: queue.depth() == 0, timeout=20, message="stored messages were not deleted")
    assert poller.poll() is None, "poll should keep running"
    assert stop(poller) == 0
    output = poller.output()
    assert "batch from" in output and "rejected:" in output  # -v: one line per batch, reasons shown

    listed = [json.loads(line) for line in run_timeline("list", "--json", "--db", db_path).stdout.splitlines()]
    assert {row["task_id"]: row["title"] for row in listed} == {
        "rt-0": "round trip 0", "rt-1": "round trip 1 done", "rt-2": "round trip 2", "rt-3": "round trip 3"}
    assert listed[0]["task_id"] == "rt-1", "the upsert (newest timestamp) is on top"
    history = [json.loads(line) for line in run_timeline("history", "rt-1", "--json", "--db", db_path)
               .stdout.splitlines()]
    assert [row["id"] for row in history] == [upsert["id"], events[1]["id"]]
    late_history = [json.loads(line) for line in run_timeline("history", "rt-2", "--json", "--db", db_path)
                    .stdout.splitlines()]
    assert [row["id"] for row in late_history] == [events[2]["id"], late["id"]], "kept in history, newest first"
    rejected = run_timeline("rejected", "--db", db_path)
    assert rejected.returncode == 0 and "no status" in rejected.stdout and "status" in rejected.stdout


def test_long_poll_returns_as_soon_as_a_message_arrives(queue, fault_proxy, spawn_timeline, db_path, wait_until):
    store = StoreView(db_path)
    poller = spawn_timeline("poll", "-v", *args_for(queue, endpoint=fault_proxy.endpoint, db=db_path))
    wait_until(lambda: fault_proxy.stats()["long_polls_in_flight"] == 2, timeout=10,
               message=lambda: f"both 20 s long polls never waited on the empty queue:\n{poller.output()}")
    event = make_event("wakes the long poll")
    send(queue, event)
    # Generous: a long poll that did not return early would answer only after its remaining ~18 s.
    wait_until(lambda: store.event_ids() == [event["id"]], timeout=10,
               message=lambda: f"the waiting long poll did not return with the message:\n{poller.output()}")
    assert stop(poller) == 0


def test_peek_leaves_messages_in_the_queue(queue, spawn_timeline, db_path, wait_until):
    events = [make_event(f"peeked {i}", offset=i) for i in range(3)]
    for event in events:
        send(queue, event)
    store = StoreView(db_path)
    poller = spawn_timeline("poll", "--peek", *args_for(queue, db=db_path))
    wait_until(lambda: store.event_count() == 3, timeout=20, message=lambda: poller.output())
    assert stop(poller) == 0
    assert sorted(store.event_ids()) == sorted(event["id"] for event in events)
    assert queue.depth() == 3, "--peek must not delete"


# ------------------------------------------------------------------------------------------- crash and restart

def test_sigkill_mid_stream_then_restart_stores_every_event_exactly_once(make_queue, spawn_timeline, db_path,
                                                                         wait_until):
    # A short visibility timeout: what the killed poller received but never deleted comes back quickly.
    queue = make_queue(VisibilityTimeout="2")
    events = many_events(300, tasks=25, prefix="kill")
    store = StoreView(db_path)
    publisher = SteadyPublisher(queue, events, pause=0.01)
    first = spawn_timeline("poll", *args_for(queue, db=db_path))
    publisher.start()
    wait_until(lambda: store.event_count() >= 60, timeout=30, message=lambda: first.output())
    first.send_signal(signal.SIGKILL)
    assert first.wait(timeout=10) == -signal.SIGKILL
    killed_at = store.event_count()
    assert killed_at < len(events) or publisher.is_alive(), "the kill must land mid-stream"

    second = spawn_timeline("poll", *args_for(queue, db=db_path))
    publisher.finish()
    wait_until(lambda: store.event_count() >= len(events), timeout=45,
               message=lambda: f"{store.event_count()} of {len(events)} stored; poller said:\n{second.output()}")
    wait_until(lambda: queue.depth() == 0, timeout=20, message="messages left in the queue")
    assert stop(second) == 0
    assert_stored_exactly_once(store, events)


def test_endpoint_down_and_back_mid_stream_recovers_without_loss(make_queue, fault_proxy, spawn_timeline,
                                                                  db_path, wait_until):
    queue = make_queue(VisibilityTimeout="2")
    events = many_events(150, tasks=10, prefix="down")
    store = StoreView(db_path)
    publisher = SteadyPublisher(queue, events, pause=0.01)  # straight to the server: agents keep publishing
    poller = spawn_timeline("poll", "-v", *args_for(queue, endpoint=fault_proxy.endpoint, db=db_path))
    publisher.start()
    wait_until(lambda: store.event_count() >= 30, timeout=30, message=lambda: poller.output())

    said_before = len(poller.output())
    fault_proxy.kill()  # the endpoint is down: connections refused
    wait_until(lambda: "backing off" in poller.output()[said_before:], timeout=30,
               message=lambda: f"-v never said it backs off from the endpoint that is down:\n{poller.output()}")
    assert poller.poll() is None, f"poll gave up while the endpoint was down:\n{poller.output()}"
    fault_proxy.start()  # back on the same port: polling must recover by itself

    publisher.finish()
    wait_until(lambda: store.event_count() >= len(events), timeout=45,
               message=lambda: f"{store.event_count()} of {len(events)} stored; poller said:\n{poller.output()}")
    wait_until(lambda: queue.depth() == 0, timeout=20, message="messages left in the queue")
    assert fault_proxy.stats()["forwarded"] > 0, "the poller went through the restarted proxy"
    assert stop(poller) == 0
    assert_stored_exactly_once(store, events)


def test_throttling_and_server_errors_cause_backoff_not_loss(make_queue, fault_proxy, spawn_timeline, db_path,
                                                             wait_until):
    queue = make_queue(VisibilityTimeout="2")
    store = StoreView(db_path)
    poller = spawn_timeline("poll", "-v", *args_for(queue, endpoint=fault_proxy.endpoint, db=db_path))
    sent = []

    def publish_some(prefix, count):
        batch = many_events(count, tasks=4, prefix=prefix)
        for event in batch:
            send(queue, event)
        sent.extend(batch)

    # Every request fails for ~3 s: a poller without backoff would hammer the proxy thousands of times.
    fault_proxy.arm("throttle")
    publish_some("throttled", 10)
    time.sleep(3)
    fault_proxy.arm("pass")
    served = fault_proxy.stats()["faults_served"]
    assert served >= 1, "the poller made no request while throttled"
    assert served < 300, f"{served} requests in ~3 s of throttling: no backoff"
    assert poller.poll() is None, f"poll stopped on throttling:\n{poller.output()}"
    wait_until(lambda: "recovered: receiving again" in poller.output(), timeout=15,
               message=lambda: f"-v never said it recovered:\n{poller.output()}")
    assert "backing off" in poller.output() and "Throttl" in poller.output(), poller.output()

    # Then a run of every other kind of retryable fault, each for a few requests.
    for mode, count in (("server_error", 4), ("html_error", 3), ("drop", 3), ("throttle", 4)):
        fault_proxy.arm(mode, count)
        publish_some(mode, 10)
        wait_until(lambda: fault_proxy.stats()["mode"] == "pass", timeout=30,
                   message=lambda: f"the {mode} faults were never consumed: {fault_proxy.stats()}")

    wait_until(lambda: store.event_count() >= len(sent), timeout=45,
               message=lambda: f"{store.event_count()} of {len(sent)} stored; poller said:\n{poller.output()}")
    wait_until(lambda: queue.depth() == 0, timeout=20, message="messages left in the queue")
    assert poller.poll() is None, f"poll stopped on a retryable fault:\n{poller.output()}"
    assert stop(poller) == 0
    assert_stored_exactly_once(store, sent)
    summary = poller.output().strip().splitlines()
    final = next(line for line in reversed(summary) if "stopped:" in line)
    assert "stopped: interrupted" in final and f"stored {len(sent)}," in final, final


# ------------------------------------------------------------------------------------------- signals and errors

def test_sigterm_exits_promptly_during_a_long_poll(queue, fault_proxy, spawn_timeline, db_path, wait_until):
    send(queue, make_event("before the long poll"))
    store = StoreView(db_path)
    poller = spawn_timeline("poll", *args_for(queue, endpoint=fault_proxy.endpoint, db=db_path))
    wait_until(lambda: store.event_count() == 1, timeout=20, message=lambda: poller.output())
    wait_until(lambda: fault_proxy.stats()["long_polls_in_flight"] > 0, timeout=10,
               message=lambda: f"no 20 s long poll in flight on the empty queue:\n{poller.output()}")
    started = time.monotonic()
    poller.send_signal(signal.SIGTERM)
    try:
        code = poller.wait(timeout=5)
    except subprocess.TimeoutExpired:
        raise AssertionError("SIGTERM was not answered within 5 s (a 20 s long poll is in flight)")
    assert code == 0, poller.output()
    assert time.monotonic() - started < 5
    assert "stopped: interrupted" in poller.output()


def test_unknown_queue_exits_1_with_a_clear_message(queue, run_timeline, db_path):
    missing = queue.url.rsplit("/", 1)[0] + "/no-such-queue-" + uuid.uuid4().hex[:8]
    result = run_timeline("poll", "--queue-url", missing, "--endpoint-url", queue.endpoint, "--region", queue.region,
                          "--db", db_path, timeout=30)
    assert result.returncode == 1, result.stderr
    assert "does not exist" in result.stderr and "no-such-queue" in result.stderr
    assert "Check the queue URL" in result.stderr


def test_a_libcurl_that_cannot_be_loaded_stops_polling_with_the_reason(queue, run_timeline, db_path, e2e_env,
                                                                       tmp_path):
    """libcurl is opened at the first request: one that cannot be loaded is a clear stop, not a crash (and,
    as the program no longer needs it to start, commands that never talk to AWS still work)."""
    send(queue, make_event("kept for later"))
    broken = tmp_path / "libs"
    broken.mkdir()
    (broken / "libcurl.so.4").write_bytes(b"not a shared library")
    env = {**e2e_env, "LD_LIBRARY_PATH": str(broken)}
    result = run_timeline("drain", *args_for(queue, db=db_path), env=env, timeout=60)
    assert result.returncode != 0 and result.returncode < 128, result.stderr
    assert "cannot load libcurl.so.4" in result.stderr and "install libcurl4" in result.stderr, result.stderr
    listed = run_timeline("list", "--db", db_path, env=env)
    assert listed.returncode == 0, listed.stderr
    attributes = queue.client.get_queue_attributes(
        QueueUrl=queue.url, AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
    assert attributes["Attributes"] == {"ApproximateNumberOfMessages": "1", "ApproximateNumberOfMessagesNotVisible": "0"}, \
        "nothing was taken from the queue"


def test_a_libcrypto_that_cannot_be_loaded_stops_polling_with_the_reason(queue, run_timeline, db_path, e2e_env,
                                                                         tmp_path):
    """libcrypto is opened at the first signature: one that cannot be loaded stops drain with the reason
    before any request (no crash), and takes nothing from the queue."""
    send(queue, make_event("kept for later"))
    broken = tmp_path / "libs"
    broken.mkdir()
    (broken / "libcrypto.so.3").write_bytes(b"not a shared library")
    result = run_timeline("drain", *args_for(queue, db=db_path), env={**e2e_env, "LD_LIBRARY_PATH": str(broken)},
                          timeout=60)
    assert result.returncode == 1, result.stderr
    assert "cannot load libcrypto.so.3" in result.stderr and "install libssl3" in result.stderr, result.stderr
    assert queue.depth() == 1


def test_drain_prints_a_summary_and_empties_the_queue(queue, run_timeline, db_path):
    events = many_events(25, tasks=5, prefix="drain")
    for event in events:
        send(queue, event)
    queue.send_raw("definitely not json")
    result = run_timeline("drain", *args_for(queue, db=db_path), timeout=60)
    assert result.returncode == 0, result.stderr
    summary = result.stdout + result.stderr
    assert "drained in" in summary
    counts = summary_counts(summary)
    # SQS is at-least-once (moto too, under concurrent receives): a redelivered event shows as a duplicate,
    # never stored twice; a redelivered bad message counts as rejected again, and is kept once (below).
    assert counts["stored"] == 25 and counts["rejected"] >= 1, summary
    assert counts["received"] == counts["stored"] + counts["duplicates"] + counts["rejected"], summary
    assert counts["deleted"] == counts["received"], summary
    assert queue.depth() == 0
    store = StoreView(db_path)
    assert_stored_exactly_once(store, events)
    assert [body for body, _ in store.rejected()] == [b"definitely not json"]


# ------------------------------------------------------------------------------------------- doctor

def doctor_env(e2e_env):
    return {**e2e_env, "AWS_ACCESS_KEY_ID": ACCESS_KEY, "AWS_SECRET_ACCESS_KEY": SECRET,
            "AWS_SESSION_TOKEN": SESSION_TOKEN}


def assert_no_secret(output):
    assert SECRET not in output and SECRET[:12] not in output, "the secret key leaked"
    assert SESSION_TOKEN not in output, "the session token leaked"
    assert ACCESS_KEY not in output, "the access key id is shown unmasked"


def test_doctor_masks_credentials_and_says_where_settings_came_from(queue, run_timeline, e2e_env, db_path):
    send(queue, make_event("one waiting"))
    result = run_timeline("doctor", "--queue-url", queue.url, "--endpoint-url", queue.endpoint, "--db", db_path,
                          env=doctor_env(e2e_env), timeout=30)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert_no_secret(output)
    assert ACCESS_KEY[-4:] in output, "the masked key keeps its last characters to be recognisable"
    assert "from environment variables" in output
    assert "from AWS_REGION" in output
    assert "from --endpoint-url" in output and "from --queue-url" in output
    assert "1 waiting" in output


def test_doctor_exits_1_when_the_queue_does_not_answer(fault_proxy, queue, run_timeline, e2e_env, db_path):
    endpoint = fault_proxy.endpoint
    fault_proxy.kill()  # nothing listens there now
    result = run_timeline("doctor", "--queue-url", queue.url, "--endpoint-url", endpoint, "--region", queue.region,
                          "--db", db_path, env=doctor_env(e2e_env), timeout=30)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert_no_secret(output)
    assert "✗ queue" in output and "reachable" in output


def test_doctor_without_credentials_says_it_once_and_skips_what_needs_them(run_timeline, e2e_env, db_path):
    env = {name: value for name, value in e2e_env.items() if not name.startswith("AWS_ACCESS_KEY_ID")
           and not name.startswith("AWS_SECRET_ACCESS_KEY") and name != "AWS_SESSION_TOKEN"}
    env["AWS_EC2_METADATA_DISABLED"] = "true"
    result = run_timeline("doctor", "--queue-url", "http://127.0.0.1:9/000000000000/q", "--db", db_path, env=env, timeout=30)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert output.count("No AWS credentials found") == 1, output
    assert "⏎" not in output and "refused the credentials" not in output, output
    assert "export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY" in output
    lines = output.splitlines()
    assert any(line.split()[:3] == ["queue", "answers", "skipped:"] for line in lines), output
    assert any(line.startswith("  clock") and "skipped: no credentials" in line for line in lines), output


def test_doctor_flags_a_queue_in_another_region_than_requests_are_signed_for(run_timeline, e2e_env, db_path):
    env = {**doctor_env(e2e_env), "AWS_REGION": "us-east-1"}
    result = run_timeline("doctor", "--queue-url", "https://sqs.eu-west-1.amazonaws.com/123456789012/q", "--db", db_path,
                          env=env, timeout=30)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "✗ region" in output and "the queue is in eu-west-1 but requests are signed for us-east-1" in output, output
    assert "skipped: the region does not match" in output
    assert_no_secret(output)
