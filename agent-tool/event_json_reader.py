"""The strict JSON reader behind `timeline_event.validate`, a mirror of Swift's `StrictJSONReader`.

RFC 8259 only, byte offsets in messages, the first duplicate key recorded (the validator decides what it
means), numbers kept as their source text so reasons echo exactly what was sent.
"""

from __future__ import annotations

__all__ = ["JSONSyntaxError", "StrictReader", "Container", "Number", "kind_phrase", "plain", "MAX_DEPTH"]

MAX_DEPTH = 128           # nested containers

class JSONSyntaxError(Exception):
    """Not JSON: `message` says what was expected, `offset` is the byte where it went wrong."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


_OBJECT = object()
_ARRAY = object()


class Number:
    """A JSON number kept as its source text (so reasons echo exactly what was sent)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def value(self):
        if any(c in self.text for c in ".eE"):
            return float(self.text)
        return int(self.text)


class StrictReader:
    """Mirror of StrictJSONReader: RFC 8259, byte offsets, same messages, duplicate keys recorded."""

    def __init__(self, data: bytes):
        self.b = data
        self.n = len(data)
        self.i = 0
        self.first_duplicate = None  # (key, inside_field or None)

    # -- helpers
    def _eof(self) -> JSONSyntaxError:
        return JSONSyntaxError("unexpected end of input", self.n)

    def _peek(self) -> int:
        if self.i >= self.n:
            raise self._eof()
        return self.b[self.i]

    def _expected(self, what: str) -> JSONSyntaxError:
        if self.i >= self.n:
            return self._eof()
        return JSONSyntaxError("expected " + what, self.i)

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
            raise JSONSyntaxError("unexpected data after the JSON value", self.i)
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
            result[key] = plain(self._value(depth, inside))
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
            result.append(plain(self._value(depth, inside)))
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
                raise JSONSyntaxError("nesting deeper than %d levels" % MAX_DEPTH, self.i)
            if c == 0x7B:
                return Container(_OBJECT, self._object(depth + 1, inside))
            return Container(_ARRAY, self._array(depth + 1, inside))
        if c == 0x22:
            return self._string()
        if c == 0x2D or 0x30 <= c <= 0x39:
            return self._number()
        for word, value in ((b"true", True), (b"false", False), (b"null", None)):
            if c == word[0]:
                if self.b[self.i:self.i + len(word)] != word:
                    raise JSONSyntaxError("invalid literal", self.i)
                self.i += len(word)
                return value
        raise self._expected("a value")

    def _number(self) -> Number:
        start = self.i
        invalid = JSONSyntaxError("invalid number", start)
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
        return Number(b[start:self.i].decode("ascii"))

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
                        raise JSONSyntaxError("invalid \\u escape", i)
                    if 0xD800 <= unit <= 0xDBFF:
                        low = None
                        if i + 7 < n and b[i + 6] == 0x5C and b[i + 7] == 0x75:
                            low = self._hex4(i + 8)
                        if low is None or not 0xDC00 <= low <= 0xDFFF:
                            raise JSONSyntaxError("unpaired surrogate in \\u escape", i)
                        out.append(chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)))
                        i += 12
                    elif 0xDC00 <= unit <= 0xDFFF:
                        raise JSONSyntaxError("unpaired surrogate in \\u escape", i)
                    else:
                        out.append(chr(unit))
                        i += 6
                else:
                    raise JSONSyntaxError("invalid escape", i)
                run_start = i
            elif c < 0x20:
                raise JSONSyntaxError("control character U+%04X in string" % c, i)
            else:
                i += 1
        out.append(b[run_start:i].decode("utf-8"))
        self.i = i + 1
        return "".join(out)


class Container:
    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value


def kind_phrase(value) -> str:
    """How a reason names the JSON type of a value read by StrictReader ("a string", "an object", …)."""
    if isinstance(value, Container):
        return "an object" if value.kind is _OBJECT else "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, Number):
        return "a number"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    raise TypeError(value)


def plain(value):
    """A value read by StrictReader as plain Python (dict, list, int/float, str, bool, None)."""
    if isinstance(value, Container):
        return value.value
    if isinstance(value, Number):
        return value.value()
    return value
