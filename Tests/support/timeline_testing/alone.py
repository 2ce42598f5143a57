"""Parallel runs (pytest-xdist, `-n N`) with a few tests that must run while no other test does.

A test marked `@pytest.mark.alone` bounds a duration that other tests' processes on the same cores would
stretch (a whole Claude Code session within 20 s): it waits until every running test has ended, and no test
starts until it has ended. Every other test runs beside the others. Without xdist this does nothing.

It is a readers-writer lock over two files shared by the workers of one run (in the run's temp directory): a
test takes `turn` for a moment, then `tests` shared; an `alone` test takes `turn` (so that no new test
starts) and then `tests` exclusively, and holds both until it ends.

A suite's conftest.py imports the fixture by name (it is autouse) and registers the marker:

    from timeline_testing.alone import register_alone_marker, take_turn  # noqa: F401
    def pytest_configure(config): register_alone_marker(config)
"""

from __future__ import annotations

import fcntl
import os
from contextlib import ExitStack

import pytest


def register_alone_marker(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "alone: runs while no other test runs (under pytest-xdist); say why")


def _lock(stack: ExitStack, path: str, mode: int) -> int:
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    stack.callback(os.close, handle)
    fcntl.flock(handle, mode)
    return handle


@pytest.fixture(autouse=True)
def take_turn(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """Shared turn for every test, the whole run for an `alone` one (only under pytest-xdist)."""
    if not hasattr(request.config, "workerinput"):
        yield
        return
    prefix = str(tmp_path_factory.getbasetemp().parent / "tests-running")  # each worker's basetemp is in it
    with ExitStack() as stack:
        turn = _lock(stack, f"{prefix}.turn", fcntl.LOCK_EX)
        alone = request.node.get_closest_marker("alone") is not None
        _lock(stack, f"{prefix}.tests", fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(turn, fcntl.LOCK_UN)
        yield
