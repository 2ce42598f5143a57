"""simulate_agents.py: --count produces valid events plus exactly the malformed messages it announces."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import defaultdict

from agent_tool_testing import SIMULATOR_SCRIPT, run_script
from timeline_event import InvalidEvent, validate


def test_count_gives_valid_events_and_the_announced_malformed_ones(queue, aws_env):
    result = run_script(SIMULATOR_SCRIPT, ["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                                           "--rate", "0", "--count", "120", "--seed", "7",
                                           "--malformed-rate", "0.1"], aws_env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    announced = {line.split()[1]: line.split()[2] for line in lines if line.startswith("malformed ")}
    event_ids = {line.split()[1] for line in lines if line.startswith("event ")}
    assert lines[-1] == f"sent {len(event_ids)} events and {len(announced)} malformed messages"
    assert len(event_ids) + len(announced) == 120
    assert announced, "with --malformed-rate 0.1 and 120 messages some must be malformed"

    messages = queue.receive_all()
    assert len(messages) == 120
    valid, refused = {}, {}
    for message in messages:
        try:
            valid[message["MessageId"]] = validate(message["Body"].encode("utf-8"))
        except InvalidEvent as error:
            refused[message["MessageId"]] = error.reason
    assert set(refused) == set(announced)
    assert set(valid) == event_ids

    events = list(valid.values())
    by_task = defaultdict(list)
    for event in events:
        by_task[event["task_id"]].append(event)
    assert len({e["agent_id"] for e in events}) >= 4
    assert {"in_progress", "success"} <= {e["status"] for e in events}
    assert any("\n" in e.get("body", "") for e in events), "some bodies are multi-line"
    for history in by_task.values():  # within a task: progress rises with time, one agent, one title
        history.sort(key=lambda e: e["timestamp"])
        progress = [e["progress"] for e in history if "progress" in e]
        assert progress == sorted(progress)
        assert len({e["agent_id"] for e in history}) == 1
        assert all(e["status"] == "in_progress" for e in history[:-1])


def test_sigterm_stops_cleanly(queue, aws_env):
    process = subprocess.Popen([sys.executable, str(SIMULATOR_SCRIPT), "--queue-url", queue.url,
                                "--endpoint-url", queue.endpoint, "--rate", "20"],
                               env=aws_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first_line = process.stdout.readline()  # wait until it is really sending
        assert first_line.startswith(("event ", "malformed ")), first_line
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr
    assert stdout.strip().splitlines()[-1].startswith("sent ")
    assert "Traceback" not in stderr


def test_ctrl_c_stops_cleanly(queue, aws_env):
    process = subprocess.Popen([sys.executable, str(SIMULATOR_SCRIPT), "--queue-url", queue.url,
                                "--endpoint-url", queue.endpoint, "--rate", "20"],
                               env=aws_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        process.stdout.readline()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert "Traceback" not in stderr


def test_duration_ends_the_run(queue, aws_env):
    result = run_script(SIMULATOR_SCRIPT, ["--queue-url", queue.url, "--endpoint-url", queue.endpoint,
                                           "--rate", "10", "--duration", "1"], aws_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("sent ")

