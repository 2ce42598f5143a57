"""Bounded polling (no durations are asserted) and process liveness.

    wait_until(predicate)   until `predicate()` is truthy (returned)
    eventually(check)       until `check()` stops failing an assertion (its result returned)
"""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.1,
               message: str | Callable[[], str] = "condition not met") -> Any:
    """Poll `predicate` until it returns something truthy (returned); fail with `message` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = predicate()
        if result:
            return result
        if time.monotonic() > deadline:
            text = message() if callable(message) else message
            pytest.fail(f"timed out after {timeout}s: {text}")
        time.sleep(interval)


def eventually(check: Callable[[], Any], timeout: float = 10.0, interval: float = 0.05) -> Any:
    """Run `check` (which asserts) until it passes, and return what it returned; after `timeout` seconds its
    last AssertionError is raised, so the failure says what was still wrong."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(interval)


def process_alive(pid: int) -> bool:
    """True while `pid` runs; a zombie (exited, not yet reaped by its new parent) counts as ended."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")
