"""A small tmpfs for full-disk tests (mounting needs root; tests that need one are skipped, saying why,
where it cannot be mounted)."""
from __future__ import annotations

import os
import subprocess
import tempfile

import pytest


class Tmpfs:
    """A small tmpfs (needs root); `available()` says whether mounting works here."""

    def __init__(self, size_kib: int):
        self.path = tempfile.mkdtemp(prefix="timeline-e2e-tmpfs-")
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", self.path],
                       check=True, capture_output=True)

    @staticmethod
    def available() -> bool:
        try:
            Tmpfs(64).unmount()
            return True
        except (subprocess.CalledProcessError, FileNotFoundError, PermissionError):
            return False

    def fill(self) -> str:
        filler = os.path.join(self.path, "filler")
        with open(filler, "wb") as out:
            try:
                while True:
                    out.write(b"\0" * 65536)
                    out.flush()
            except OSError:
                pass
        return filler

    def unmount(self) -> None:
        subprocess.run(["umount", "-l", self.path], capture_output=True)
        os.rmdir(self.path)


needs_tmpfs = pytest.mark.skipif(not Tmpfs.available(),
                                 reason="cannot mount a tmpfs here (needs root): full-disk test skipped")
