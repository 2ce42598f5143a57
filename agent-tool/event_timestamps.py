"""Timestamps of `timeline` events: the RFC 3339 rules of Swift's `Timestamp.swift`, and the format we send.

    timestamp_problem(text) -> (micros, None) | (None, phrase)   phrase completes 'field "timestamp" …'
    format_timestamp(moment=None) -> str                        UTC with milliseconds and `Z`
"""

from __future__ import annotations

from datetime import datetime, timezone

__all__ = ["timestamp_problem", "format_timestamp", "MIN_MICROS", "MAX_MICROS"]

MIN_MICROS = 0                          # 1970-01-01T00:00:00Z
MAX_MICROS = 253_402_300_799_999_999    # 9999-12-31T23:59:59.999999Z

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


def timestamp_problem(text: str):
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


def format_timestamp(moment: datetime | None = None) -> str:
    """UTC ISO 8601 with milliseconds and `Z`, e.g. 2026-11-22T03:26:12.123Z."""
    moment = (moment or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
