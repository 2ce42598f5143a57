"""The rules for `actions` and `reply_to` (how a human answers an event), mirroring Swift's `InteractionRules`
(`Sources/TimelineCore/EventInteraction.swift`) with the same reasons. Used by `timeline_event.validate`.

Each check returns None when the value is fine, else the reason sentence.
"""

from __future__ import annotations

import re
import unicodedata

from network_address import is_loopback_host, webhook_host_refusal

__all__ = ["actions_problem", "reply_to_problem", "is_queue_url", "is_allowed_webhook", "label_columns",
           "MAX_ACTIONS", "MAX_LABEL_COLUMNS", "MAX_LABEL_BYTES", "MAX_URL_BYTES", "ACTION_ID"]

MAX_ACTIONS = 6
MAX_ID_LENGTH = 64
MAX_LABEL_COLUMNS = 40
MAX_LABEL_BYTES = 256     # so zero-width characters cannot make a label huge
MAX_URL_BYTES = 2_048
STYLES = ("default", "primary", "danger")
ACTION_ID = re.compile(r"[a-z0-9_.-]{1,%d}" % MAX_ID_LENGTH)
_URL_REASON = "must be an https:// URL (http:// only to 127.0.0.1, ::1 or localhost), got "
_QUEUE_REASON = ('field "reply_to" must be an SQS queue URL like '
                 'https://sqs.eu-west-1.amazonaws.com/123456789012/agent-replies, got ')
_HOST = re.compile(r"[^\W_]|[.-]")


def _kind(value) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def _string_problem(name: str, value):
    if not isinstance(value, str):
        return 'field "%s" must be a string, got %s' % (name, _kind(value))
    if "\x00" in value:
        return 'field "%s" contains a NUL character' % name
    return None


def label_columns(label: str) -> int:
    """Columns of a label, character by character as Swift's DisplayText.width(of: Unicode.Scalar)."""
    total = 0
    for ch in label:
        code = ord(ch)
        if code < 0x7F:
            total += 1 if code >= 0x20 else 0
        elif code <= 0x9F or code == 0xAD:
            continue
        elif code < 0x300:
            total += 1
        elif 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF or code == 0x200B:
            continue
        elif unicodedata.category(ch) in ("Mn", "Me", "Cf", "Cc"):
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            total += 2
        else:
            total += 1
    return total


def _split_url(text: str):
    """(scheme, host, path) of `scheme://host[:port]/path?query` in printable ASCII, else None."""
    if not all(0x20 < ord(c) < 0x7F for c in text):
        return None
    if text.startswith("https://"):
        scheme = "https"
    elif text.startswith("http://"):
        scheme = "http"
    else:
        return None
    rest = text[len(scheme) + 3:]
    end = len(rest)
    for index, c in enumerate(rest):
        if c in "/?":
            end = index
            break
    authority = rest[:end]
    if not authority or "@" in authority or "#" in text or "\\" in text:
        return None
    host = authority
    if host.startswith("["):
        close = host.find("]")
        if close < 0:
            return None
        after = host[close + 1:]
        if after and not (after.startswith(":") and _valid_port(after[1:])):
            return None
        host = host[:close + 1]
    elif ":" in host:
        host, port = host.split(":", 1)
        if not _valid_port(port):
            return None
    if not host or host != host.lower():
        return None
    if not host.startswith("[") and not all(_HOST.fullmatch(c) for c in host):
        return None
    path = rest[end:].split("?", 1)[0]
    return scheme, host, path


def _valid_port(text: str) -> bool:
    return 0 < len(text) <= 5 and text.isascii() and text.isdigit() and 1 <= int(text) <= 65535


def is_allowed_webhook(text: str) -> bool:
    """https anywhere; http only to loopback."""
    parts = _split_url(text)
    return parts is not None and (parts[0] == "https" or (parts[0] == "http" and is_loopback_host(parts[1])))


def is_queue_url(text: str) -> bool:
    """`https://HOST/ACCOUNT/NAME` (12-digit account; 1-80 of [A-Za-z0-9_-], optional .fifo); http only to loopback."""
    parts = _split_url(text)
    if parts is None or not (parts[0] == "https" or (parts[0] == "http" and is_loopback_host(parts[1]))):
        return False
    segments = parts[2].split("/")
    if len(segments) != 3 or segments[0] or len(segments[1]) != 12 or not (segments[1].isascii() and segments[1].isdigit()):
        return False
    name = segments[2][:-5] if segments[2].endswith(".fifo") else segments[2]
    return re.fullmatch(r"[A-Za-z0-9_-]{1,80}", name) is not None


def actions_problem(value, quote, is_blank):
    """The reason `actions` is refused, or None. `quote`/`is_blank` are the validator's reason helpers."""
    if not isinstance(value, list):
        return 'field "actions" must be an array of 1-%d actions, got %s' % (MAX_ACTIONS, _kind(value))
    if not 1 <= len(value) <= MAX_ACTIONS:
        return 'field "actions" has %d actions, must have 1-%d' % (len(value), MAX_ACTIONS)
    seen = set()
    for index, item in enumerate(value):
        path = "actions[%d]" % index
        if not isinstance(item, dict):
            return 'field "%s" must be an object, got %s' % (path, _kind(item))
        if "id" not in item:
            return 'missing required field "%s.id"' % path
        problem = _string_problem(path + ".id", item["id"])
        if problem:
            return problem
        action_id = item["id"]
        if not ACTION_ID.fullmatch(action_id):
            return 'field "%s.id" must be 1-%d characters of a-z 0-9 _ . -, got %s' % (path, MAX_ID_LENGTH, quote(action_id))
        if action_id in seen:
            return 'field "%s.id" repeats the action id %s' % (path, quote(action_id))
        seen.add(action_id)
        if "label" not in item:
            return 'missing required field "%s.label"' % path
        label = item["label"]
        problem = _string_problem(path + ".label", label)
        if problem:
            return problem
        size = len(label.encode("utf-8"))
        if size > MAX_LABEL_BYTES:
            return 'field "%s.label" is %d bytes, longer than the %d-byte limit' % (path, size, MAX_LABEL_BYTES)
        if is_blank(label):
            return 'field "%s.label" is empty or only whitespace' % path
        columns = label_columns(label)
        if columns > MAX_LABEL_COLUMNS:
            return 'field "%s.label" is %d columns wide, wider than the %d-column limit' % (path, columns, MAX_LABEL_COLUMNS)
        if "style" in item:
            problem = _string_problem(path + ".style", item["style"])
            if problem:
                return problem
            if item["style"] not in STYLES:
                return 'field "%s.style" is %s, not one of %s' % (path, quote(item["style"]), ", ".join(STYLES))
        if "url" in item:
            problem = _string_problem(path + ".url", item["url"])
            if problem:
                return problem
            url = item["url"]
            if len(url.encode("utf-8")) > MAX_URL_BYTES or not is_allowed_webhook(url):
                return 'field "%s.url" %s%s' % (path, _URL_REASON, quote(url))
            # Private ranges depend on the viewer's webhook_allow_private: checked again when sending.
            refusal = webhook_host_refusal(_split_url(url)[1], allow_private=True)
            if refusal:
                return 'field "%s.url" names a host webhooks may not reach (%s), got %s' % (path, refusal, quote(url))
    return None


def reply_to_problem(value, quote):
    """The reason `reply_to` is refused, or None."""
    problem = _string_problem("reply_to", value)
    if problem:
        return problem
    if len(value.encode("utf-8")) > MAX_URL_BYTES or not is_queue_url(value):
        return _QUEUE_REASON + quote(value)
    return None
