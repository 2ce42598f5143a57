"""The schema migration at scale: a database written by an older `timeline` (e.g. the release before the
current schema) holding events of the realistic mix plus rejected messages, marks, read state and replies
is opened by the new binary (which migrates it in place); the new binary's backup of it must equal the old
one's, byte for byte. Prints the migration time and the verdict; exits 1 when something was not kept.

    python bench/migration_check.py --old /path/to/old/timeline --new .build/release/timeline [--events 1000000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realistic_mix  # noqa: E402

FIXTURE = Path(__file__).resolve().parent.parent / "Tests/TimelineStoreTests/Fixtures/version9-input.jsonl"


def backup_digest(timeline: str, db: Path) -> tuple[str, int]:
    """SHA-256 and line count of the binary's backup of `db`."""
    process = subprocess.Popen([timeline, "export", "--db", str(db), "--format", "backup"], stdout=subprocess.PIPE)
    digest, lines = hashlib.sha256(), 0
    assert process.stdout is not None
    for line in process.stdout:
        digest.update(line)
        lines += 1
    if process.wait() != 0:
        raise SystemExit(f"{timeline} export failed")
    return digest.hexdigest(), lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--events", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        db = Path(directory) / "old.db"
        events = Path(directory) / "events.jsonl"
        encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
        with open(events, "w", encoding="utf-8") as out:
            for payload in realistic_mix.events(args.events, seed=11):
                out.write(encode(payload) + "\n")
        subprocess.run([args.old, "import", "--db", str(db), "--quiet", str(events)], check=True, stdout=subprocess.DEVNULL)
        # Rejected messages, marks, read state and replies (a backup's records), on top of the events.
        subprocess.run([args.old, "import", "--db", str(db), "--quiet", str(FIXTURE)], check=True, stdout=subprocess.DEVNULL)
        before, lines = backup_digest(args.old, db)
        start = time.monotonic()
        empty = Path(directory) / "empty.jsonl"
        empty.write_text("")
        subprocess.run([args.new, "import", "--db", str(db), "--quiet", str(empty)], check=True, stdout=subprocess.DEVNULL)
        seconds = time.monotonic() - start
        after, _ = backup_digest(args.new, db)
        kept = before == after
        print(f"migration of {args.events:,} events ({lines:,} backup lines): {seconds:.1f} s;"
              f" backup after {'equals' if kept else 'DIFFERS FROM'} the one before")
        sys.exit(0 if kept else 1)


if __name__ == "__main__":
    main()
