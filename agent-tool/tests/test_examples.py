"""Runs every shared example payload (schema/examples) through timeline_event, mirroring the Swift tests."""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import timeline_event  # noqa: E402
from timeline_event import InvalidEvent  # noqa: E402
from event_builder import new_event  # noqa: E402

ROOT = os.path.join(HERE, "..", "..", "schema")
EXAMPLES = os.path.join(ROOT, "examples")
METADATA = {"reasons.json", "expected.json"}


def _bodies(kind):
    folder = os.path.join(EXAMPLES, kind)
    names = sorted(f for f in os.listdir(folder) if f.endswith(".json") and f not in METADATA)
    return [(name[:-5], open(os.path.join(folder, name), "rb").read()) for name in names]


def _load(path):
    with open(os.path.join(EXAMPLES, path), encoding="utf-8") as handle:
        return json.load(handle)


REASONS = _load("invalid/reasons.json")
EXPECTED = _load("valid/expected.json")
GENERATED = _load("generated.json")["cases"]
INVALID = _bodies("invalid")
VALID = _bodies("valid")


def _expand(case):
    out = bytearray()
    for part in case["parts"]:
        if isinstance(part, str):
            out += part.encode("utf-8")
        else:
            out += part["repeat"].encode("utf-8") * part["count"]
    return bytes(out)


def _reason(body):
    with pytest.raises(InvalidEvent) as caught:
        timeline_event.validate(body)
    return caught.value.reason


def _check_expected(event, expected):
    for field, want in expected.items():
        if field == "timestamp_micros":
            assert timeline_event.timestamp_micros(event["timestamp"]) == want
        elif field == "body_bytes":
            assert len(event.get("body", "").encode("utf-8")) == want
        elif field == "body":
            assert event.get("body", "") == want
        elif field == "category":
            category = event.get("category")
            if category is not None and all(ch.isspace() and ch not in "\x1c\x1d\x1e\x1f" for ch in category):
                category = None  # a blank category counts as none
            assert category == want
        elif field == "progress":
            assert event.get("progress") == want
        elif field == "step":
            assert event.get("step", False) is want
        else:
            assert event[field] == want, field


def test_example_sets_are_complete():
    assert len(INVALID) >= 40 and len(VALID) >= 10
    assert {name for name, _ in INVALID} == set(REASONS)
    assert set(EXPECTED) <= {name for name, _ in VALID}


@pytest.mark.parametrize("name,body", INVALID, ids=[n for n, _ in INVALID])
def test_invalid_example_is_rejected_with_exact_reason(name, body):
    assert _reason(body) == REASONS[name]


@pytest.mark.parametrize("name,body", VALID, ids=[n for n, _ in VALID])
def test_valid_example_is_accepted(name, body):
    event = timeline_event.validate(body)
    _check_expected(event, EXPECTED.get(name, {}))


@pytest.mark.parametrize("case", GENERATED, ids=[c["name"] for c in GENERATED])
def test_generated_case(case):
    body = _expand(case)
    if "reason" in case:
        assert _reason(body) == case["reason"]
    else:
        _check_expected(timeline_event.validate(body), case.get("expect", {}))


def test_str_input_is_sent_as_utf8():
    body = open(os.path.join(EXAMPLES, "valid", "cjk-emoji-title.json"), "rb").read().decode("utf-8")
    assert timeline_event.validate(body)["title"].startswith("部署完成")
    assert _reason("\ud800") == "message is not valid UTF-8 (byte 0xED at offset 0)"


# --- the JSON Schema agrees with the examples

SCHEMA_EXPRESSIBLE = ("missing required field", "must be a string", "is not one of", "must be a number", "must be true or false",
                      "is empty or only whitespace", "contains a NUL", "is not an ISO 8601", "has no time zone")


@pytest.fixture(scope="module")
def schema_validator():
    jsonschema = pytest.importorskip("jsonschema")
    with open(os.path.join(ROOT, "event.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name,body", VALID, ids=[n for n, _ in VALID])
def test_schema_accepts_valid_example(schema_validator, name, body):
    errors = list(schema_validator.iter_errors(json.loads(body)))
    assert errors == []


def test_schema_rejects_field_level_invalid_examples(schema_validator):
    checked = 0
    for name, body in INVALID:
        if not any(marker in REASONS[name] for marker in SCHEMA_EXPRESSIBLE):
            continue
        instance = json.loads(body)  # these bodies are valid JSON
        assert list(schema_validator.iter_errors(instance)), name
        checked += 1
    assert checked >= 40


def test_schema_limits_match_the_validator():
    with open(os.path.join(ROOT, "event.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    props = schema["properties"]
    assert schema["x-maxMessageBytes"] == timeline_event.MESSAGE_BYTES
    for field in ("id", "agent_id", "task_id"):
        assert props[field]["x-maxUtf8Bytes"] == timeline_event.ID_BYTES
    assert props["title"]["x-maxUtf8Bytes"] == timeline_event.TITLE_BYTES
    assert props["body"]["x-maxUtf8Bytes"] == timeline_event.BODY_BYTES
    assert props["category"]["anyOf"][1]["x-maxUtf8Bytes"] == timeline_event.CATEGORY_BYTES
    assert props["status"]["enum"] == list(timeline_event.STATUSES)


# --- new_event (the one builder) against the validator

def _encode(event):
    return json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def test_new_event_fills_defaults_that_validate():
    event = new_event("Deploy started", "in_progress", "deployer", progress=5)
    assert event["task_id"] == event["id"]
    assert len(event["id"]) == 36 and event["id"].count("-") == 4
    assert event["timestamp"].endswith("Z")
    micros = timeline_event.timestamp_micros(event["timestamp"])
    assert abs(micros / 1e6 - __import__("time").time()) < 60
    assert timeline_event.validate(_encode(event)) == event
    assert "body" not in event and "category" not in event


def test_new_event_keeps_given_values_and_extra_fields():
    event = new_event("t", "success", "a", task_id="T-1", id="e-9", body="b", category="ci",
                      timestamp="2026-11-22T05:04:05+02:00", extra={"pr": 7})
    assert (event["id"], event["task_id"], event["category"], event["pr"]) == ("e-9", "T-1", "ci", 7)
    assert timeline_event.validate(_encode(event)) == event


def test_new_event_extra_never_replaces_a_field():
    with pytest.raises(ValueError, match="title"):
        new_event("t", "info", "a", extra={"title": "x"})


@pytest.mark.parametrize("kwargs,reason", [
    ({"status": "done"}, 'status "done" is not one of info, in_progress, success, warning, error, needs_input'),
    ({"progress": True}, 'field "progress" must be a number from 0 to 100, got true'),
    ({"progress": 101}, 'field "progress" must be a number from 0 to 100, got 101'),
    ({"timestamp": "2026-11-22T03:04:05"},
     'field "timestamp" has no time zone (add Z or an offset like +02:00): "2026-11-22T03:04:05"'),
    ({"agent_id": " "}, 'field "agent_id" is empty or only whitespace'),
])
def test_built_events_are_rejected_like_timeline(kwargs, reason):
    args = {"title": "t", "status": "info", "agent_id": "a"}
    args.update(kwargs)
    title, status, agent_id = args.pop("title"), args.pop("status"), args.pop("agent_id")
    with pytest.raises(InvalidEvent) as caught:
        timeline_event.validate(_encode(new_event(title, status, agent_id, **args)))
    assert caught.value.reason == reason


def test_schema_cross_check_is_live(tmp_path, monkeypatch):
    pytest.importorskip("jsonschema")
    with open(os.path.join(ROOT, "event.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    schema["required"] = schema["required"] + ["only_in_this_test"]
    path = tmp_path / "stricter.schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    monkeypatch.setenv("TIMELINE_EVENT_SCHEMA", str(path))
    # Both cached values are restored by monkeypatch afterwards, so later tests see the real schema.
    monkeypatch.setattr(timeline_event, "_SCHEMA_LOADED", False)
    monkeypatch.setattr(timeline_event, "_SCHEMA_VALIDATOR", None)
    body = open(os.path.join(EXAMPLES, "valid", "minimal.json"), "rb").read()
    try:
        with pytest.raises(AssertionError, match="only_in_this_test"):
            timeline_event.validate(body)
    finally:
        monkeypatch.setattr(timeline_event, "_SCHEMA_LOADED", False)


# --- replies (schema/examples/replies), also run by Swift's ReplyExampleTests

def test_every_reply_example_is_read_or_refused_with_the_swift_reason():
    from agent_reply import InvalidReply, parse_reply

    folder = os.path.join(EXAMPLES, "replies")
    reasons = _load("replies/invalid/reasons.json")
    invalid = _bodies("replies/invalid")
    assert {name for name, _ in invalid} == set(reasons)
    for name, body in invalid:
        with pytest.raises(InvalidReply) as caught:
            parse_reply(body)
        assert caught.value.reason == reasons[name], name
    valid = _bodies("replies/valid")
    assert len(valid) >= 3 and os.path.isdir(folder)
    for name, body in valid:
        reply = parse_reply(body)
        assert (reply.action is None) != (reply.text is None), name
