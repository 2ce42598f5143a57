"""The long-task helper's event sequence with a frozen clock: timestamps must still strictly increase."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from long_task import Task

FROZEN = datetime(2026, 11, 22, 3, 0, 0, 999_999, tzinfo=timezone.utc)


def collecting_task(**options):
    sent: list[dict] = []

    def send(event: dict) -> str:
        sent.append(event)
        return f"m{len(sent)}"

    return Task("Index docs", "doc-writer", send, clock=lambda: FROZEN, **options), sent


def test_frozen_clock_still_gives_increasing_millisecond_timestamps():
    reporter, sent = collecting_task(task_id="docs-1")
    with reporter as t:
        t.progress(50)
        t.update("note", status="info")
    assert [e["timestamp"] for e in sent] == [
        "2026-11-22T03:00:00.999Z", "2026-11-22T03:00:01.000Z", "2026-11-22T03:00:01.001Z",
        "2026-11-22T03:00:01.002Z",
    ]
    assert [e["status"] for e in sent] == ["in_progress", "in_progress", "info", "success"]
    assert reporter.message_ids == ["m1", "m2", "m3", "m4"]


def test_task_id_defaults_to_first_event_id_and_is_kept():
    reporter, sent = collecting_task()
    with reporter:
        pass
    assert sent[0]["task_id"] == sent[0]["id"] == sent[1]["task_id"]
    assert sent[1]["id"] != sent[0]["id"]
    assert "progress" not in sent[1]  # no progress reported, so none claimed at the end


def test_keyboard_interrupt_becomes_error_and_propagates():
    reporter, sent = collecting_task()
    with pytest.raises(KeyboardInterrupt):
        with reporter:
            raise KeyboardInterrupt
    assert sent[-1]["status"] == "error"
    assert sent[-1]["body"].startswith("KeyboardInterrupt\n")
