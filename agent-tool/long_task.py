"""Reporting a long task as one timeline row: in_progress on start, progress updates, then the outcome.

    with task("Deploy api", agent_id="deployer", category="deploy") as t:   # in_progress
        t.progress(40, "migrating")                                          # in_progress, 40 %
    # success on a normal exit; an exception sends `error` with its message and is re-raised.

Every event of a task shares one task_id and carries a strictly increasing timestamp, so the viewer's
"newest wins" rule always shows the latest state even if SQS delivers them out of order.
"""

from __future__ import annotations

import traceback
from datetime import datetime, timedelta, timezone
from types import TracebackType
from typing import Any, Callable

from event_builder import format_timestamp, new_event

_STEP = timedelta(milliseconds=1)  # the timestamp resolution we send
_MAX_TRACE_CHARS = 6000


class Task:
    """A context manager that publishes a task's lifecycle through `send(event_dict) -> message_id`."""

    def __init__(self, title: str, agent_id: str, send: Callable[[dict[str, Any]], str], *,
                 category: str | None = None, task_id: str | None = None, body: str | None = None,
                 clock: Callable[[], datetime] | None = None):
        self.title = title
        self.agent_id = agent_id
        self.category = category
        self.task_id = task_id
        self._start_body = body
        self._send = send
        self._clock = clock or (lambda: datetime.now(timezone.utc))
        self._last_time: datetime | None = None
        self._last_progress: float | None = None
        self._finished = False
        #: SQS message ids of every event sent, in order.
        self.message_ids: list[str] = []

    # -- context manager ------------------------------------------------------------------------

    def __enter__(self) -> "Task":
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> bool:
        if exc is None:
            if not self._finished:
                self.finish("success")
            return False
        try:
            self.finish("error", _describe_exception(exc, tb))
        except Exception as publish_failure:  # never hide the task's own exception behind ours
            exc.add_note(f"timeline: the error event could not be published: {publish_failure}")
        return False  # re-raise

    # -- events ---------------------------------------------------------------------------------

    def start(self, body: str | None = None) -> str:
        """Send the first in_progress event (done by `with`)."""
        return self.update(body if body is not None else self._start_body)

    def progress(self, percent: float, body: str | None = None, *, title: str | None = None) -> str:
        """Send an in_progress event with progress 0–100 and optional details."""
        return self.update(body, progress=percent, title=title)

    def update(self, body: str | None = None, *, progress: float | None = None, title: str | None = None,
               status: str = "in_progress") -> str:
        """Send an intermediate event (in_progress by default; `info` or `warning` also make sense)."""
        if title is not None:
            self.title = title
        if progress is not None:
            self._last_progress = progress
        return self._emit(status, body, progress)

    def finish(self, status: str = "success", body: str | None = None, *, title: str | None = None) -> str:
        """Send the final event now (success, warning or error); `with` then sends nothing more."""
        if title is not None:
            self.title = title
        self._finished = True
        final_progress = 100 if status == "success" and self._last_progress is not None else None
        return self._emit(status, body, final_progress)

    # -- plumbing -------------------------------------------------------------------------------

    def _next_timestamp(self) -> str:
        now = self._clock().astimezone(timezone.utc)
        now = now.replace(microsecond=now.microsecond // 1000 * 1000)
        if self._last_time is not None and now <= self._last_time:
            now = self._last_time + _STEP
        self._last_time = now
        return format_timestamp(now)

    def _emit(self, status: str, body: str | None, progress: float | None) -> str:
        event = new_event(self.title, status, self.agent_id, task_id=self.task_id, body=body,
                          category=self.category, progress=progress, timestamp=self._next_timestamp())
        if self.task_id is None:  # the first event's id names the task
            self.task_id = event["task_id"]
        message_id = self._send(event)
        self.message_ids.append(message_id)
        return message_id


def _describe_exception(exc: BaseException, tb: TracebackType | None) -> str:
    """`Type: message`, then the traceback (trimmed) for the detail view."""
    headline = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    trace = "".join(traceback.format_exception(type(exc), exc, tb))
    if len(trace) > _MAX_TRACE_CHARS:
        trace = "…\n" + trace[-_MAX_TRACE_CHARS:]
    return f"{headline}\n\n{trace}".rstrip()
