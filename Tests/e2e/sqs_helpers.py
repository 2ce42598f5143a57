"""Helpers shared by the end-to-end tests that go through a real local SQS server: sending events (made by the
shared factories, re-exported here), a steady background publisher, and read-only views of the timeline
database file."""

from __future__ import annotations

import sqlite3
import threading
import time
from typing import Any

from publish_event import publish_dict
from timeline_testing.events import make_event, now_event  # noqa: F401  (the e2e suites import them from here)

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
