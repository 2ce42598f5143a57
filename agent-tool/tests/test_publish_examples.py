"""The shared example payloads (schema/examples) through `publish_event.py --json`:
every invalid one refused with exit 2 and its exact reason, nothing sent; every valid one sent unchanged."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

import sqs_server
from agent_tool_testing import PUBLISH_SCRIPT, REPO_ROOT, run_script
from timeline_testing.sqs_fixtures import create_queue, delete_quietly

EXAMPLES = REPO_ROOT / "schema" / "examples"
METADATA_FILES = {"reasons.json", "expected.json"}


def _generated_body(case: dict) -> bytes:
    parts = []
    for part in case["parts"]:
        parts.append(part if isinstance(part, str) else part["repeat"] * part["count"])
    return "".join(parts).encode("utf-8")


def _bodies(kind: str) -> dict[str, bytes]:
    folder = EXAMPLES / kind
    bodies = {path.stem: path.read_bytes() for path in sorted(folder.glob("*.json"))
              if path.name not in METADATA_FILES}
    manifest = json.loads((EXAMPLES / "generated.json").read_text(encoding="utf-8"))
    for case in manifest["cases"]:
        if ("reason" in case) == (kind == "invalid"):
            bodies[f"generated:{case['name']}"] = _generated_body(case)
    return bodies


def _invalid_cases() -> dict[str, tuple[bytes, str]]:
    reasons = json.loads((EXAMPLES / "invalid" / "reasons.json").read_text(encoding="utf-8"))
    manifest = json.loads((EXAMPLES / "generated.json").read_text(encoding="utf-8"))
    reasons.update({f"generated:{case['name']}": case["reason"] for case in manifest["cases"] if "reason" in case})
    bodies = _bodies("invalid")
    assert set(bodies) == set(reasons), "every invalid example needs exactly one expected reason"
    return {name: (bodies[name], reasons[name]) for name in bodies}


# One worker runs this module under pytest-xdist (`--dist loadgroup`): `invalid_runs`, a module fixture, runs
# every invalid example once, not once per worker its tests are spread over.
pytestmark = pytest.mark.xdist_group("publish-examples")

INVALID = _invalid_cases() if (EXAMPLES / "invalid").is_dir() else {}
VALID = _bodies("valid") if (EXAMPLES / "valid").is_dir() else {}


def test_examples_are_present():
    assert len(INVALID) >= 40 and len(VALID) >= 10


def _run_all(queue, aws_env, bodies: dict[str, bytes]) -> dict[str, object]:
    args = ["--json", "--queue-url", queue.url, "--endpoint-url", queue.endpoint]
    with ThreadPoolExecutor(max_workers=4) as pool:  # each run is a separate interpreter: run a few at once
        futures = {name: pool.submit(run_script, PUBLISH_SCRIPT, args, aws_env, body)
                   for name, body in bodies.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def invalid_runs(sqs, sqs_endpoint):
    """Every invalid example through the command once; the queue must stay empty."""
    import os

    queue = create_queue(sqs, sqs_endpoint, prefix="invalid-examples")
    env = {**os.environ, **sqs_server.DUMMY_CREDENTIALS, "AWS_REGION": sqs_server.TEST_REGION,
           "AWS_EC2_METADATA_DISABLED": "true"}
    results = _run_all(queue, env, {name: body for name, (body, _) in INVALID.items()})
    yield queue, results
    delete_quietly(queue)


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_example_refused_with_its_reason(invalid_runs, name):
    _, results = invalid_runs
    result = results[name]
    expected_reason = INVALID[name][1]
    assert (result.returncode, result.stderr) == (2, f"invalid event: {expected_reason}\n")
    assert result.stdout == ""


def test_no_invalid_example_reached_the_queue(invalid_runs):
    queue, _ = invalid_runs
    assert queue.depth() == 0
    assert queue.receive_all() == []


def test_every_valid_example_is_sent_unchanged(queue, aws_env):
    results = _run_all(queue, aws_env, VALID)
    failures = {name: r.stderr for name, r in results.items() if r.returncode != 0}
    assert failures == {}
    received = {m["MessageId"]: m["Body"] for m in queue.receive_all()}
    assert len(received) == len(VALID)
    for name, body in VALID.items():
        message_id = results[name].stdout.strip()
        sent = received[message_id]
        if sent.encode("utf-8") != body:  # re-escaped only where SQS forbids a raw character
            assert json.loads(sent) == json.loads(body.decode("utf-8")), name
