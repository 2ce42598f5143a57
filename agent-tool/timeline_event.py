"""Validate and build `timeline` event payloads, exactly as the Swift `EventParser` does.

Self-contained (standard library only; `jsonschema` is used as a cross-check when importable).

    validate(body: bytes | str) -> dict      raises InvalidEvent(reason) with the same reason text as Swift
    build_event(title=..., status=..., ...) -> dict   fills defaults and validates
    encode_event(event: dict) -> bytes      compact UTF-8 JSON of an event dict
    timestamp_micros(text: str) -> int      UTC microseconds of a valid timestamp (raises InvalidEvent)

The rules and reasons are spelled out once in `schema/event.schema.json` (shape and limits) and in the Swift
sources (`Sources/TimelineCore/EventParser.swift`, `StrictJSON.swift`, `Timestamp.swift`, `ReasonText.swift`);
the shared examples in `schema/examples` keep the two implementations identical.
"""

from __future__ import annotations

import datetime as _dt
import json as _json
import os as _os
import uuid as _uuid

__all__ = [
    "InvalidEvent", "validate", "build_event", "encode_event", "timestamp_micros", "now_timestamp",
    "STATUSES", "MESSAGE_BYTES", "ID_BYTES", "TITLE_BYTES", "CATEGORY_BYTES", "BODY_BYTES", "MAX_DEPTH",
]

STATUSES = ("info", "in_progress", "success", "warning", "error")
MESSAGE_BYTES = 1_048_576 # whole message: the most SQS carries (1 MiB)
ID_BYTES = 256            # id, agent_id, task_id
TITLE_BYTES = 1_024
CATEGORY_BYTES = 256
BODY_BYTES = MESSAGE_BYTES  # as long as the message can carry
MAX_DEPTH = 128           # nested containers
QUOTED_SCALAR_LIMIT = 40
MIN_MICROS = 0                          # 1970-01-01T00:00:00Z
MAX_MICROS = 253_402_300_799_999_999    # 9999-12-31T23:59:59.999999Z

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

def _hex4(value: int) -> str:
    return "%04X" % value


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
            out.append("\\u" + _hex4(code))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _cut(text: str) -> str:
    return text if len(text) <= QUOTED_SCALAR_LIMIT else text[:QUOTED_SCALAR_LIMIT] + "…"


def _is_blank(text: str) -> bool:
    return all(ord(ch) in _WHITE_SPACE for ch in text)


# ---------------------------------------------------------------------------------------- strict JSON reader

class _Syntax(Exception):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


_OBJECT = object()
_ARRAY = object()


class _Number:
    """A JSON number kept as its source text (so reasons echo exactly what was sent)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def value(self):
        if any(c in self.text for c in ".eE"):
            return float(self.text)
        return int(self.text)


class _Reader:
    """Mirror of StrictJSONReader: RFC 8259, byte offsets, same messages, duplicate keys recorded."""

    def __init__(self, data: bytes):
        self.b = data
        self.n = len(data)
        self.i = 0
        self.first_duplicate = None  # (key, inside_field or None)

    # -- helpers
    def _eof(self) -> _Syntax:
        return _Syntax("unexpected end of input", self.n)

    def _peek(self) -> int:
        if self.i >= self.n:
            raise self._eof()
        return self.b[self.i]

    def _expected(self, what: str) -> _Syntax:
        if self.i >= self.n:
            return self._eof()
        return _Syntax("expected " + what, self.i)

    def _ws(self) -> None:
        b, n, i = self.b, self.n, self.i
        while i < n and b[i] in (0x20, 0x09, 0x0A, 0x0D):
            i += 1
        self.i = i

    def _digit(self, i: int) -> bool:
        return i < self.n and 0x30 <= self.b[i] <= 0x39

    def _hex4(self, i: int):
        if i + 4 > self.n:
            return None
        chunk = self.b[i:i + 4]
        if not all(c in b"0123456789abcdefABCDEF" for c in chunk):
            return None
        return int(chunk.decode("ascii"), 16)

    # -- document
    def document(self):
        """Returns ("object", [(key, value), ...]) or ("other", value)."""
        self._ws()
        if self.i < self.n and self.b[self.i] == 0x7B:
            result = ("object", self._top_object())
        else:
            result = ("other", self._value(0, None))
        self._ws()
        if self.i < self.n:
            raise _Syntax("unexpected data after the JSON value", self.i)
        return result

    def _top_object(self):
        self.i += 1
        members = []
        self._ws()
        if self._peek() == 0x7D:
            self.i += 1
            return members
        while True:
            self._ws()
            if self._peek() != 0x22:
                raise self._expected("a key string")
            key = self._string()
            if self.first_duplicate is None and any(k == key for k, _ in members):
                self.first_duplicate = (key, None)
            self._ws()
            if self._peek() != 0x3A:
                raise self._expected("':'")
            self.i += 1
            members.append((key, self._value(1, key)))
            self._ws()
            c = self._peek()
            if c == 0x2C:
                self.i += 1
            elif c == 0x7D:
                self.i += 1
                return members
            else:
                raise self._expected("',' or '}'")

    def _object(self, depth: int, inside):
        self.i += 1
        result = {}
        self._ws()
        if self._peek() == 0x7D:
            self.i += 1
            return result
        while True:
            self._ws()
            if self._peek() != 0x22:
                raise self._expected("a key string")
            key = self._string()
            if key in result and self.first_duplicate is None:
                self.first_duplicate = (key, inside)
            self._ws()
            if self._peek() != 0x3A:
                raise self._expected("':'")
            self.i += 1
            result[key] = _plain(self._value(depth, inside))
            self._ws()
            c = self._peek()
            if c == 0x2C:
                self.i += 1
            elif c == 0x7D:
                self.i += 1
                return result
            else:
                raise self._expected("',' or '}'")

    def _array(self, depth: int, inside):
        self.i += 1
        result = []
        self._ws()
        if self._peek() == 0x5D:
            self.i += 1
            return result
        while True:
            result.append(_plain(self._value(depth, inside)))
            self._ws()
            c = self._peek()
            if c == 0x2C:
                self.i += 1
            elif c == 0x5D:
                self.i += 1
                return result
            else:
                raise self._expected("',' or ']'")

    def _value(self, depth: int, inside):
        """A value; containers come back as ("object", dict) / ("array", list) tuples tagged for typing."""
        self._ws()
        c = self._peek()
        if c == 0x7B or c == 0x5B:
            if depth + 1 > MAX_DEPTH:
                raise _Syntax("nesting deeper than %d levels" % MAX_DEPTH, self.i)
            if c == 0x7B:
                return _Container(_OBJECT, self._object(depth + 1, inside))
            return _Container(_ARRAY, self._array(depth + 1, inside))
        if c == 0x22:
            return self._string()
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self._number()
        for word, value in ((b"true", True), (b"false", False), (b"null", None)):
            if c == word[0]:
                if self.b[self.i:self.i + len(word)] != word:
                    raise _Syntax("invalid literal", self.i)
                self.i += len(word)
                return value
        raise self._expected("a value")

    def _number(self) -> _Number:
        start = self.i
        invalid = _Syntax("invalid number", start)
        b = self.b
        if b[self.i] == 0x2D:
            self.i += 1
        if self._digit(self.i) and b[self.i] == 0x30:
            self.i += 1
        elif self._digit(self.i):
            while self._digit(self.i):
                self.i += 1
        else:
            raise invalid
        if self.i < self.n and b[self.i] == 0x2E:
            self.i += 1
            if not self._digit(self.i):
                raise invalid
            while self._digit(self.i):
                self.i += 1
        if self.i < self.n and b[self.i] | 0x20 == 0x65:
            self.i += 1
            if self.i < self.n and b[self.i] in (0x2B, 0x2D):
                self.i += 1
            if not self._digit(self.i):
                raise invalid
            while self._digit(self.i):
                self.i += 1
        return _Number(b[start:self.i].decode("ascii"))

    _SIMPLE_ESCAPES = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n", 0x72: "\r", 0x74: "\t"}

    def _string(self) -> str:
        b, n = self.b, self.n
        i = self.i + 1
        out = []
        run_start = i
        while True:
            if i >= n:
                raise self._eof()
            c = b[i]
            if c == 0x22:
                break
            if c == 0x5C:
                out.append(b[run_start:i].decode("utf-8"))
                if i + 1 >= n:
                    raise self._eof()
                kind = b[i + 1]
                if kind in self._SIMPLE_ESCAPES:
                    out.append(self._SIMPLE_ESCAPES[kind])
                    i += 2
                elif kind == 0x75:
                    unit = self._hex4(i + 2)
                    if unit is None:
                        raise _Syntax("invalid \\u escape", i)
                    if 0xD800 <= unit <= 0xDBFF:
                        low = None
                        if i + 7 < n and b[i + 6] == 0x5C and b[i + 7] == 0x75:
                            low = self._hex4(i + 8)
                        if low is None or not 0xDC00 <= low <= 0xDFFF:
                            raise _Syntax("unpaired surrogate in \\u escape", i)
                        out.append(chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)))
                        i += 12
                    elif 0xDC00 <= unit <= 0xDFFF:
                        raise _Syntax("unpaired surrogate in \\u escape", i)
                    else:
                        out.append(chr(unit))
                        i += 6
                else:
                    raise _Syntax("invalid escape", i)
                run_start = i
            elif c < 0x20:
                raise _Syntax("control character U+%s in string" % _hex4(c), i)
            else:
                i += 1
        out.append(b[run_start:i].decode("utf-8"))
        self.i = i + 1
        return "".join(out)


class _Container:
    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value


def _kind(value) -> str:
    if isinstance(value, _Container):
        return "an object" if value.kind is _OBJECT else "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, _Number):
        return "a number"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    raise TypeError(value)


def _plain(value):
    if isinstance(value, _Container):
        return value.value
    if isinstance(value, _Number):
        return value.value()
    return value


# ------------------------------------------------------------------------------------------------ timestamps

_NOT_ISO = "is not an ISO 8601 date-time like 2026-11-22T03:04:05Z"
_NO_ZONE = "has no time zone (add Z or an offset like +02:00)"


def _days_in(month: int, year: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _days_from_civil(year: int, month: int, day: int) -> int:
    y = year - 1 if month <= 2 else year
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (month - 3 if month > 2 else month + 9) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146_097 + doe - 719_468


def _timestamp_problem(text: str):
    """(micros, None) for a valid timestamp, else (None, phrase)."""
    b = text.encode("utf-8")
    n = len(b)

    def digit(i):
        return i < n and 0x30 <= b[i] <= 0x39

    def at(i, chars):
        return i < n and chr(b[i]) in chars

    def number(lo, hi):
        return int(b[lo:hi].decode("ascii"))

    def src(lo, hi):
        return b[lo:hi].decode("ascii")

    shape = all(digit(i) for i in (0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18)) and at(4, "-") and at(7, "-") \
        and at(10, "Tt") and at(13, ":") and at(16, ":")
    if not shape:
        return None, _NOT_ISO
    i = 19
    fraction = 0
    if at(i, "."):
        i += 1
        start = i
        while digit(i):
            i += 1
        count = i - start
        if not 1 <= count <= 9:
            return None, _NOT_ISO
        kept = min(count, 6)
        fraction = number(start, start + kept) * 10 ** (6 - kept)
    offset_seconds = 0
    offset_range = None
    if i == n:
        return None, _NO_ZONE
    elif at(i, "Zz") and i + 1 == n:
        pass
    elif at(i, "+-") and digit(i + 1) and digit(i + 2) and at(i + 3, ":") and digit(i + 4) and digit(i + 5) \
            and i + 6 == n:
        offset_range = (i, i + 6)
        sign = -1 if at(i, "-") else 1
        offset_seconds = sign * (number(i + 1, i + 3) * 3600 + number(i + 4, i + 6) * 60)
    else:
        return None, _NOT_ISO

    year, month, day = number(0, 4), number(5, 7), number(8, 10)
    hour, minute, second = number(11, 13), number(14, 16), number(17, 19)
    if not 1 <= month <= 12:
        return None, "has month %s, must be 01-12" % src(5, 7)
    dim = _days_in(month, year)
    if not 1 <= day <= dim:
        return None, "has day %s, must be 01-%d for %s-%s" % (src(8, 10), dim, src(0, 4), src(5, 7))
    if hour > 23:
        return None, "has hour %s, must be 00-23" % src(11, 13)
    if minute > 59:
        return None, "has minute %s, must be 00-59" % src(14, 16)
    if second > 59:
        return None, "has second %s, must be 00-59" % src(17, 19)
    if offset_range:
        lo, hi = offset_range
        if number(lo + 1, lo + 3) > 23 or number(lo + 4, hi) > 59:
            return None, "has offset %s, must be within ±23:59" % src(lo, hi)
    seconds = _days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset_seconds
    micros = seconds * 1_000_000 + fraction
    if micros < MIN_MICROS:
        return None, "is before 1970-01-01T00:00:00Z"
    if micros > MAX_MICROS:
        return None, "is after 9999-12-31T23:59:59.999999Z"
    return micros, None


def timestamp_micros(text: str) -> int:
    """UTC microseconds since the epoch of an RFC 3339 timestamp; raises InvalidEvent like validate()."""
    micros, problem = _timestamp_problem(text)
    if problem is not None:
        raise InvalidEvent('field "timestamp" %s: %s' % (problem, _quote(text)))
    return micros


def now_timestamp() -> str:
    """The current time in UTC as RFC 3339 with microseconds and `Z`, e.g. 2026-11-22T03:04:05.123456Z."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# ------------------------------------------------------------------------------------------------ validation

def _checked_string(name, value, limit, allow_blank, or_null):
    if value is None and or_null:
        return None
    if not isinstance(value, str):
        raise InvalidEvent('field "%s" must be a string%s, got %s' % (name, " or null" if or_null else "", _kind(value)))
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
    if isinstance(value, _Number):
        number = float(value.text)
        if not 0 <= number <= 100:
            raise InvalidEvent(prefix + _cut(value.text))
        return value.value()
    if isinstance(value, str):
        raise InvalidEvent(prefix + _quote(value))
    if isinstance(value, bool):
        raise InvalidEvent(prefix + ("true" if value else "false"))
    raise InvalidEvent(prefix + _kind(value))


def validate(body) -> dict:
    """Validates one message body (bytes, or str sent as UTF-8) with the exact rules of `timeline`.

    Returns the event as a dict (all fields as sent, unknown fields included). Raises InvalidEvent(reason).
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

    reader = _Reader(data)
    try:
        kind, parsed = reader.document()
    except _Syntax as error:
        raise InvalidEvent("message is not valid JSON: %s at byte %d" % (error.message, error.offset))
    if kind != "object":
        raise InvalidEvent("message is not a JSON object, got %s" % _kind(parsed))
    if reader.first_duplicate is not None:
        key, inside = reader.first_duplicate
        if inside is not None:
            raise InvalidEvent("duplicate key %s inside field %s" % (_quote(key), _quote(inside)))
        raise InvalidEvent("duplicate field %s" % _quote(key))

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

    event = {key: _plain(value) for key, value in parsed}
    _schema_cross_check(event)
    return event


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


# ------------------------------------------------------------------------------------------------- building

def encode_event(event: dict) -> bytes:
    """Compact UTF-8 JSON of an event dict (non-ASCII kept as UTF-8)."""
    return _json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def build_event(title, status="info", *, agent_id=None, task_id=None, body=None, category=None, progress=None,
                id=None, timestamp=None, extra=None) -> dict:
    """Builds a valid event dict, filling defaults, and validates it (raises InvalidEvent).

    Defaults: id = a new UUID4, task_id = id, timestamp = now in UTC (`...Z`),
    agent_id = $TIMELINE_AGENT_ID or "agent". Optional fields left None are omitted.
    `extra` adds unknown fields (kept by `timeline` in the raw JSON).
    """
    event_id = id if id is not None else str(_uuid.uuid4())
    event = {
        "id": event_id,
        "agent_id": agent_id if agent_id is not None else _os.environ.get("TIMELINE_AGENT_ID", "agent"),
        "task_id": task_id if task_id is not None else event_id,
        "title": title,
        "status": status,
        "timestamp": timestamp if timestamp is not None else now_timestamp(),
    }
    if body is not None:
        event["body"] = body
    if category is not None:
        event["category"] = category
    if progress is not None:
        event["progress"] = progress
    for key, value in (extra or {}).items():
        if key in event:
            raise InvalidEvent('duplicate field %s' % _quote(key))
        event[key] = value
    # bool is an int in Python: make it fail like it would on the wire instead of passing as 0/1.
    validate(encode_event(event))
    return event
