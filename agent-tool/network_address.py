"""Where an address points: what is loopback, private, link-local or metadata. Mirrors Swift's
`NetworkAddress` (`Sources/SharedRules/NetworkAddress.swift`); both run
`schema/examples/network-addresses.json`."""

from __future__ import annotations

import re

__all__ = ["is_loopback_host", "scope", "webhook_host_refusal", "METADATA_NAMES"]

METADATA_NAMES = frozenset({"metadata", "metadata.google.internal", "metadata.goog", "instance-data",
                            "instance-data.ec2.internal", "metadata.azure.internal"})
_OCTET = re.compile(r"0|[1-9][0-9]{0,2}")
_GROUP = re.compile(r"[0-9a-fA-F]{1,4}")


def _ipv4(text: str):
    """Four canonical decimal octets (0-255, no leading zeros), else None."""
    parts = text.split(".")
    if len(parts) != 4 or not all(_OCTET.fullmatch(p) and int(p) <= 255 for p in parts):
        return None
    return [int(p) for p in parts]


def _groups(part: str, allow_quad: bool):
    if not part:
        return []
    fields = part.split(":")
    out = []
    for index, field in enumerate(fields):
        if allow_quad and index == len(fields) - 1 and "." in field:
            quad = _ipv4(field)
            if quad is None:
                return None
            out += [quad[0] << 8 | quad[1], quad[2] << 8 | quad[3]]
        elif _GROUP.fullmatch(field):
            out.append(int(field, 16))
        else:
            return None
    return out


def _ipv6(text: str):
    """The 16 bytes of an IPv6 address (hex groups, one `::`, optionally a dotted quad last), else None."""
    if not text or len(text) > 45:
        return None
    halves = text.split("::")
    if len(halves) > 2:
        return None
    if len(halves) == 2:
        head, tail = _groups(halves[0], False), _groups(halves[1], True)
        if head is None or tail is None or len(head) + len(tail) > 7:
            return None
        words = head + [0] * (8 - len(head) - len(tail)) + tail
    else:
        words = _groups(halves[0], True)
        if words is None or len(words) != 8:
            return None
    return [b for w in words for b in (w >> 8, w & 0xFF)]


def _scope_v4(o) -> str:
    if o[0] == 127:
        return "loopback"
    if o[0] == 10 or (o[0] == 172 and 16 <= o[1] <= 31) or (o[0] == 192 and o[1] == 168) \
            or (o[0] == 100 and 64 <= o[1] <= 127):
        return "private"
    if o[0] == 169 and o[1] == 254:
        return "link-local"
    if o[0] == 0 or o[0] >= 224:
        return "reserved"
    return "public"


def _scope_v6(b) -> str:
    first_ten = all(x == 0 for x in b[:10])
    if first_ten and b[10] == 0xFF and b[11] == 0xFF:
        return _scope_v4(b[12:])
    if b[:12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]:
        return _scope_v4(b[12:])
    if first_ten and b[10] == 0 and b[11] == 0:
        if b[12:15] == [0, 0, 0]:
            if b[15] == 1:
                return "loopback"
            if b[15] == 0:
                return "reserved"
        return _scope_v4(b[12:])
    if b[0] == 0xFE and b[1] & 0xC0 == 0x80:
        return "link-local"
    if b[0] & 0xFE == 0xFC:
        return "private"
    if b[0] == 0xFF:
        return "reserved"
    return "public"


def is_loopback_host(host: str) -> bool:
    """A URL host as written: four canonical decimal octets in 127.0.0.0/8, `[::1]` or `localhost` only."""
    if host in ("localhost", "[::1]"):
        return True
    octets = _ipv4(host)
    return octets is not None and octets[0] == 127


def scope(text: str):
    """`loopback`, `private`, `link-local`, `reserved` or `public` for a numeric address; None otherwise."""
    octets = _ipv4(text)
    if octets is not None:
        return _scope_v4(octets)
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    data = _ipv6(text)
    return None if data is None else _scope_v6(data)


def _refusal(kind: str, address: str, allow_private: bool):
    if kind in ("loopback", "public"):
        return None
    if kind == "private":
        return None if allow_private else "%s is a private address (webhook_allow_private = true allows it)" % address
    if kind == "link-local":
        return "%s is a link-local address (cloud metadata lives there)" % address
    return "%s is a reserved, multicast or broadcast address" % address


def webhook_host_refusal(host: str, allow_private: bool):
    """Why a webhook may not go to `host` (lower case, IPv6 in brackets); None when it may."""
    if host.startswith("["):
        kind = scope(host)
        if kind is None:
            return "%s is not an IPv6 address" % host
        return _refusal(kind, host, allow_private)
    kind = scope(host)
    if kind is not None:
        return _refusal(kind, host, allow_private)
    name = host[:-1] if host.endswith(".") else host
    if name in METADATA_NAMES:
        return "%s is a cloud metadata service" % host
    last = name.split(".")[-1]
    if not last or (last.isascii() and last.isdigit()) or last.startswith("0x"):
        return "%s is not a host name nor a plain dotted IPv4 address" % host
    return None
