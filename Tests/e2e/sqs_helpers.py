"""Helpers shared by the end-to-end tests that go through a real local SQS server: events with known ids,
a steady background publisher, and read-only views of the timeline database file."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

from publish_event import publish_dict

_BASE = datetime.now(timezone.utc) - timedelta(minutes=5)


def reset_base_time() -> None:
    """Moves the fixed base of `make_event` to five minutes before now. Called before each test (conftest):
    a base taken once at import would age past the TUI's 10-minute stale mark during a long session."""
    global _BASE
    _BASE = datetime.now(timezone.utc) - timedelta(minutes=5)


def make_event(title: str, status: str = "info", *, task_id: str | None = None, agent_id: str = "e2e-agent",
               offset: float = 0.0, **fields: Any) -> dict[str, Any]:
    """A valid event with a fresh UUID; `offset` seconds after a fixed base time (so order is deterministic)."""
    event_id = str(uuid.uuid4())
    timestamp = (_BASE + timedelta(seconds=offset)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    event = {"id": event_id, "agent_id": agent_id, "task_id": task_id or event_id, "title": title,
             "status": status, "timestamp": timestamp}
    event.update({key: value for key, value in fields.items() if value is not None})
    return event


def now_event(title: str, status: str = "info", **fields: Any) -> dict[str, Any]:
    """A valid event stamped now (for the TUI: newer than anything published before it)."""
    event = make_event(title, status, **fields)
    event["timestamp"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return event


def send(queue: Any, event: dict[str, Any]) -> str:
    """Validate with agent-tool and send to `queue` (a LocalQueue); returns the SQS message id."""
    return publish_dict(event, queue_url=queue.url, client=queue.client)


class SteadyPublisher(threading.Thread):
    """Publishes `events` one by one (a short pause between them) from a background thread."""

    def __init__(self, queue: Any, events: list[dict[str, Any]], pause: float = 0.01):
        super().__init__(daemon=True)
        self.queue, self.events, self.pause = queue, events, pause
        self.sent = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            for event in self.events:
                send(self.queue, event)
                self.sent += 1
                time.sleep(self.pause)
        except BaseException as error:  # reported by finish()
            self.error = error

    def finish(self, timeout: float = 60) -> None:
        self.join(timeout)
        assert not self.is_alive(), "the publisher did not finish"
        assert self.error is None, f"publishing failed: {self.error!r}"
        assert self.sent == len(self.events)


class StoreView:
    """Read-only queries on the timeline database file (another process writes it)."""

    def __init__(self, path: str):
        self.path = path

    def _rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        try:
            connection = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, timeout=10)
        except sqlite3.OperationalError:
            return []  # not created yet
        try:
            return connection.execute(sql, params).fetchall()
        except sqlite3.OperationalError as error:
            if "no such table" in str(error):
                return []
            raise
        finally:
            connection.close()

    def event_ids(self) -> list[str]:
        """Every stored event id, one entry per stored row (duplicates would show twice)."""
        return [row[0] for row in self._rows("SELECT id FROM events")]

    def event_count(self) -> int:
        rows = self._rows("SELECT count(*) FROM events")
        return rows[0][0] if rows else 0

    def current_titles(self) -> dict[str, str]:
        """task_id -> title of the event the timeline shows for it."""
        return dict(self._rows("SELECT t.task_id, e.title FROM timeline t JOIN events e ON e.seq = t.seq"))

    def rejected(self) -> list[tuple[bytes, str]]:
        return [(bytes(body) if not isinstance(body, str) else body.encode(), reason)
                for body, reason in self._rows("SELECT raw_body, reason FROM rejected")]
