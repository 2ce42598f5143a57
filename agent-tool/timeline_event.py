"""Validate `timeline` event payloads with exactly the rules and reasons of the Swift `EventParser`.

    validate(body: bytes | str) -> dict      raises InvalidEvent(reason) with the same reason text as Swift
    timestamp_micros(text: str) -> int      UTC microseconds of a valid timestamp (raises InvalidEvent)

Standard library only (`jsonschema` is used as a cross-check when importable). The JSON reader lives in
`event_json_reader`, the timestamp rules in `event_timestamps`, building events in `event_builder`.
The rules are spelled out once in `schema/event.schema.json` (shape and limits) and in the Swift sources
(`Sources/TimelineCore/EventParser.swift`, `StrictJSON.swift`, `Timestamp.swift`, `ReasonText.swift`);
the shared examples in `schema/examples` keep the two implementations identical.
"""

from __future__ import annotations

import json as _json
import os as _os

from event_json_reader import MAX_DEPTH, JSONSyntaxError, Number, StrictReader, kind_phrase, plain
from event_timestamps import timestamp_problem
from event_interaction import actions_problem, reply_to_problem

__all__ = [
    "InvalidEvent", "validate", "timestamp_micros", "read_object", "checked_string", "quote",
    "STATUSES", "MESSAGE_BYTES", "ID_BYTES", "TITLE_BYTES", "CATEGORY_BYTES", "BODY_BYTES", "MAX_DEPTH",
]

STATUSES = ("info", "in_progress", "success", "warning", "error", "needs_input")
MESSAGE_BYTES = 1_048_576 # whole message: the most SQS carries (1 MiB)
ID_BYTES = 256            # id, agent_id, task_id
TITLE_BYTES = 1_024
CATEGORY_BYTES = 256
BODY_BYTES = MESSAGE_BYTES  # as long as the message can carry
MAX_DEPTH = 128           # nested containers
QUOTED_SCALAR_LIMIT = 40

_STATUS_LIST = ", ".join(STATUSES)
_WHITE_SPACE = frozenset(
    list(range(0x09, 0x0E)) + [0x20, 0x85, 0xA0, 0x1680] + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)


class InvalidEvent(ValueError):
    """A payload that `timeline` would reject; `reason` is the one-sentence explanation."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# ---------------------------------------------------------------------------------------------- reason text

def _quote(value: str) -> str:
    out = ['"']
    for count, ch in enumerate(value):
        if count == QUOTED_SCALAR_LIMIT:
            out.append("…")
            break
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append("\\u%04X" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _cut(text: str) -> str:
    return text if len(text) <= QUOTED_SCALAR_LIMIT else text[:QUOTED_SCALAR_LIMIT] + "…"


def _is_blank(text: str) -> bool:
    return all(ord(ch) in _WHITE_SPACE for ch in text)


# ------------------------------------------------------------------------------------------------ timestamps

def timestamp_micros(text: str) -> int:
    """UTC microseconds since the epoch of an RFC 3339 timestamp; raises InvalidEvent like validate()."""
    micros, problem = timestamp_problem(text)
    if problem is not None:
        raise InvalidEvent('field "timestamp" %s: %s' % (problem, _quote(text)))
    return micros


# ------------------------------------------------------------------------------------------------ validation

def _checked_string(name, value, limit, allow_blank, or_null):
    if value is None and or_null:
        return None
    if not isinstance(value, str):
        raise InvalidEvent('field "%s" must be a string%s, got %s' % (name, " or null" if or_null else "", kind_phrase(value)))
    if "\x00" in value:
        raise InvalidEvent('field "%s" contains a NUL character' % name)
    size = len(value.encode("utf-8"))
    if limit is not None and size > limit:
        raise InvalidEvent('field "%s" is %d bytes, longer than the %d-byte limit' % (name, size, limit))
    if not allow_blank and _is_blank(value):
        raise InvalidEvent('field "%s" is empty or only whitespace' % name)
    return value


def _checked_progress(value):
    prefix = 'field "progress" must be a number from 0 to 100, got '
    if isinstance(value, Number):
        number = float(value.text)
        if not 0 <= number <= 100:
            raise InvalidEvent(prefix + _cut(value.text))
        return value.value()
    if isinstance(value, str):
        raise InvalidEvent(prefix + _quote(value))
    if isinstance(value, bool):
        raise InvalidEvent(prefix + ("true" if value else "false"))
    raise InvalidEvent(prefix + kind_phrase(value))


def validate(body) -> dict:
    """Validates one message body (bytes, or str sent as UTF-8) with the exact rules of `timeline`.

    Returns the event as a dict (all fields as sent, unknown fields included). Raises InvalidEvent(reason).
    """
    parsed = read_object(body)
    members = dict(parsed)

    def required(name, limit):
        if name not in members:
            raise InvalidEvent('missing required field "%s"' % name)
        return _checked_string(name, members[name], limit, False, False)

    required("id", ID_BYTES)
    required("agent_id", ID_BYTES)
    required("task_id", ID_BYTES)
    required("title", TITLE_BYTES)
    status = required("status", None)
    if status not in STATUSES:
        raise InvalidEvent("status %s is not one of %s" % (_quote(status), _STATUS_LIST))
    timestamp_micros(required("timestamp", None))
    if "body" in members:
        _checked_string("body", members["body"], BODY_BYTES, True, False)
    if "category" in members:
        _checked_string("category", members["category"], CATEGORY_BYTES, True, True)
    if "progress" in members:
        _checked_progress(members["progress"])
    if "step" in members and not isinstance(members["step"], bool):
        raise InvalidEvent('field "step" must be true or false, got %s' % kind_phrase(members["step"]))
    if "actions" in members:
        problem = actions_problem(plain(members["actions"]), _quote, _is_blank)
        if problem:
            raise InvalidEvent(problem)
    if "reply_to" in members:
        problem = reply_to_problem(plain(members["reply_to"]), _quote)
        if problem:
            raise InvalidEvent(problem)

    event = {key: plain(value) for key, value in parsed}
    _schema_cross_check(event)
    return event


def checked_string(name, value, limit, allow_blank=False):
    """A string field by the event rules (type, NUL, byte limit, blank), for other documents (replies)."""
    return _checked_string(name, value, limit, allow_blank, False)


def quote(value: str) -> str:
    """A value as reasons quote it (cut at 40 characters, controls escaped)."""
    return _quote(value)


def read_object(body) -> list:
    """The message-level rules (rule 1): not empty, size, UTF-8, strict JSON, an object, no duplicate keys.

    Returns the top-level members as (key, value) pairs, values as read by `event_json_reader` (use
    `event_json_reader.plain` for Python values). Raises InvalidEvent. Shared with reply documents.
    """
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    elif not isinstance(body, (bytes, bytearray, memoryview)):
        raise TypeError("body must be bytes or str")
    data = bytes(body)
    if not data:
        raise InvalidEvent("message is empty")
    if len(data) > MESSAGE_BYTES:
        raise InvalidEvent("message is %d bytes, larger than the %d-byte limit" % (len(data), MESSAGE_BYTES))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidEvent("message is not valid UTF-8 (byte 0x%02X at offset %d)" % (data[error.start], error.start))

    reader = StrictReader(data)
    try:
        kind, parsed = reader.document()
    except JSONSyntaxError as error:
        raise InvalidEvent("message is not valid JSON: %s at byte %d" % (error.message, error.offset))
    if kind != "object":
        raise InvalidEvent("message is not a JSON object, got %s" % kind_phrase(parsed))
    if reader.first_duplicate is not None:
        key, inside = reader.first_duplicate
        if inside is not None:
            raise InvalidEvent("duplicate key %s inside field %s" % (_quote(key), _quote(inside)))
        raise InvalidEvent("duplicate field %s" % _quote(key))

    return parsed


# ------------------------------------------------------------------------------------- JSON Schema (optional)

_SCHEMA_VALIDATOR = None
_SCHEMA_LOADED = False


def _schema_path():
    here = _os.path.dirname(_os.path.abspath(__file__))
    return _os.environ.get("TIMELINE_EVENT_SCHEMA") or _os.path.join(here, "..", "schema", "event.schema.json")


def _schema_cross_check(event: dict) -> None:
    """When `jsonschema` is importable and the schema file is present, an event that passed the rules above
    must also satisfy the schema; a disagreement is a bug in one of the two, reported as AssertionError."""
    global _SCHEMA_VALIDATOR, _SCHEMA_LOADED
    if not _SCHEMA_LOADED:
        _SCHEMA_LOADED = True
        try:
            import jsonschema  # type: ignore
            with open(_schema_path(), encoding="utf-8") as handle:
                schema = _json.load(handle)
            # No format checker: the schema's pattern states the timestamp shape, and calendar validity is
            # checked above; optional format plug-ins (rfc3339-validator) must not change the verdict.
            _SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(schema)
        except (ImportError, OSError):
            _SCHEMA_VALIDATOR = None
    if _SCHEMA_VALIDATOR is not None:
        errors = sorted(_SCHEMA_VALIDATOR.iter_errors(event), key=lambda e: list(e.path))
        if errors:
            raise AssertionError("event passed validation but not %s: %s" % (_schema_path(), errors[0].message))
