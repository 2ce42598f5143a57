"""Building event dicts: defaults (new UUID id, task_id = id, timestamp = now) and the timestamp format."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Any


def format_timestamp(moment: datetime | None = None) -> str:
    """UTC ISO 8601 with milliseconds and `Z`, e.g. 2026-11-22T03:26:12.123Z."""
    moment = (moment or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def new_event(title: Any, status: Any, agent_id: Any, *, task_id: Any = None, body: Any = None,
              category: Any = None, progress: Any = None, id: Any = None,  # noqa: A002 (payload name)
              timestamp: Any = None) -> dict[str, Any]:
    """An event dict with defaults filled in: a new UUID id, task_id = id, timestamp = now.

    `timestamp` may be ISO 8601 text or an aware `datetime` (formatted in UTC).
    Fields given as None are left out (so a missing title is reported by validation, not here).
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
    return {key: value for key, value in event.items() if value is not None}


def _timestamp_text(timestamp: Any) -> Any:
    if timestamp is None:
        return format_timestamp()
    if isinstance(timestamp, datetime):
        if timestamp.tzinfo is None:
            raise ValueError("timestamp datetime must be timezone-aware (e.g. datetime.now(timezone.utc))")
        return format_timestamp(timestamp)
    return timestamp
