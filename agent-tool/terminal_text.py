"""Text from outside shown on a terminal: mirrors Swift's `DisplayText.escaped` and `TerminalSafety.isUnsafe`
(character categories from Python's own Unicode tables, which may be a version apart from Swift's)."""

from __future__ import annotations

import unicodedata

__all__ = ["escaped", "is_unsafe"]

_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}
_KEPT_FORMAT = {0x200C, 0x200D} | set(range(0xE0020, 0xE0080))


def is_unsafe(char: str) -> bool:
    """C0/C1 controls, DEL, line and paragraph separators, bidi controls and other invisible format characters,
    unassigned code points and noncharacters: what must not reach a terminal as itself."""
    value = ord(char)
    if 0x20 <= value < 0x7F:
        return False
    if value < 0x20 or 0x7F <= value <= 0x9F or value in (0x85, 0x2028, 0x2029) or value in _BIDI:
        return True
    if (0xFDD0 <= value <= 0xFDEF) or (value & 0xFFFE) == 0xFFFE:
        return True
    category = unicodedata.category(char)
    if category == "Cf":
        return value not in _KEPT_FORMAT
    return category in ("Cn", "Cs")


def escaped(text: str) -> str:
    """`text` with every unsafe character as an escape (`\\n`, `\\t`, `\\u001B`, `\\u202E`) and backslashes
    doubled: one safe line for a terminal."""
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif is_unsafe(char):
            out.append("\\u%04X" % ord(char))
        else:
            out.append(char)
    result = "".join(out)
    if result and unicodedata.category(result[0]) in ("Mn", "Me", "Mc"):
        result = " " + result  # a leading combining mark must not combine with what was drawn before
    return result
