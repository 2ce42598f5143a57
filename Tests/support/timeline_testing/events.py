"""The event payloads the suites feed to `timeline` (through `timeline import`, or published to a queue): one
factory, `event`, and two shorthands for tests that want times on a fixed base (`make_event`, `now_event`).

    event("T-1", "Deploy failed", "error", agent="ci", age=30, body="...")   stamped 30 s before now
    event("T-1", "x", id="ev-1", now=NOW, age=timedelta(days=3))             a fixed id and clock
    make_event("title", "info", task_id="t", offset=2)                       2 s after the test's base time
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def timestamp(moment: datetime) -> str:
    """`moment` as the payload's ISO 8601 UTC timestamp (with microseconds)."""
    return moment.astimezone(timezone.utc).strftime(TIMESTAMP_FORMAT)


def event(task: str, title: str, status: str = "info", *, agent: str = "agent-1", id: str | None = None,
          now: datetime | None = None, age: float | timedelta = 0, **fields: Any) -> dict[str, Any]:
    """A valid event payload: a fresh UUID unless `id` is given, stamped `age` (seconds or a timedelta) before
    `now` (the moment of the call unless given). Other fields (body, category, progress, actions, reply_to,
    unknown ones) are added as given; a field given as None is left out."""
    if "seconds_ago" in fields:  # the name an older factory used: it would become a payload field here
        raise TypeError("event(): give the age with age=, not seconds_ago=")
    moment = (now or datetime.now(timezone.utc)) - (age if isinstance(age, timedelta) else timedelta(seconds=age))
    payload = {"id": id or str(uuid.uuid4()), "agent_id": agent, "task_id": task, "title": title,
               "status": status, "timestamp": timestamp(moment)}
    payload.update({key: value for key, value in fields.items() if value is not None})
    return payload


_base = datetime.now(timezone.utc) - timedelta(minutes=5)


def reset_base_time() -> None:
    """Moves the base of `make_event` to five minutes before now. Called before each test (e2e conftest): a
    base taken once at import would age past the TUI's 10-minute stale mark during a long session."""
    global _base
    _base = datetime.now(timezone.utc) - timedelta(minutes=5)


def make_event(title: str, status: str = "info", *, task_id: str | None = None, agent_id: str = "e2e-agent",
               offset: float = 0.0, **fields: Any) -> dict[str, Any]:
    """An event `offset` seconds after the test's base time (so order is deterministic); its task is its
    own id unless `task_id` is given."""
    event_id = str(uuid.uuid4())
    return event(task_id or event_id, title, status, agent=agent_id, id=event_id, now=_base, age=-offset, **fields)


def now_event(title: str, status: str = "info", **fields: Any) -> dict[str, Any]:
    """As `make_event`, stamped now (for the TUI: newer than anything published before it)."""
    made = make_event(title, status, **fields)
    made["timestamp"] = timestamp(datetime.now(timezone.utc))
    return made
