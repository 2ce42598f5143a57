"""Building event dicts: defaults (new UUID id, task_id = id, timestamp = now); the one event builder."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from event_timestamps import format_timestamp

__all__ = ["new_event", "format_timestamp"]


def new_event(title: Any, status: Any, agent_id: Any, *, task_id: Any = None, body: Any = None,
              category: Any = None, progress: Any = None, id: Any = None,  # noqa: A002 (payload name)
              timestamp: Any = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """An event dict with defaults filled in: a new UUID id, task_id = id, timestamp = now.

    `timestamp` may be ISO 8601 text or an aware `datetime` (formatted in UTC).
    Fields given as None are left out (so a missing title is reported by validation, not here).
    `extra` adds further fields (e.g. `actions`, `reply_to`); it never replaces one set above.
    """
    event_id = id if id is not None else str(uuid.uuid4())
    event: dict[str, Any] = {
        "id": event_id,
        "agent_id": agent_id,
        "task_id": task_id if task_id is not None else event_id,
        "title": title,
        "status": status,
        "timestamp": _timestamp_text(timestamp),
        "body": body,
        "category": category,
        "progress": progress,
    }
    event = {key: value for key, value in event.items() if value is not None}
    for key, value in (extra or {}).items():
        if key in event:
            raise ValueError(f"extra field {key!r} would replace the event's own {key!r}")
        event[key] = value
    return event


def _timestamp_text(timestamp: Any) -> Any:
    if timestamp is None:
        return format_timestamp()
    if isinstance(timestamp, datetime):
        if timestamp.tzinfo is None:
            raise ValueError("timestamp datetime must be timezone-aware (e.g. datetime.now(timezone.utc))")
        return format_timestamp(timestamp)
    return timestamp
