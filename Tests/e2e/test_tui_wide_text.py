"""Wide and clustered characters in the real terminal: a flag (two regional indicators), CJK and emoji are
drawn whole, and no character of an earlier frame is left behind in their cells."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from timeline_testing.events import event


def jsonl(i: int, title: str) -> str:
    """One JSON line of `timeline import`: event `w<i>`, stamped `i` seconds after a fixed minute."""
    made = event(f"task-{i}", title, id=f"w{i}", agent="doc-writer", now=datetime(2026, 11, 22, 4, 0, i, tzinfo=timezone.utc))
    return json.dumps(made, ensure_ascii=False)


def test_flag_and_cjk_rows_have_no_stale_characters(tmux, timeline_bin, e2e_env, db_path, run_timeline):
    long_ascii = "x" * 60
    # The flag row is newest: once the ASCII row above it is pushed down, its cells are redrawn.
    lines = [jsonl(1, long_ascii), jsonl(2, "ドキュメント翻訳 🇯🇵 end")]
    assert run_timeline("import", "--db", db_path, "-", input=lines[0] + "\n").returncode == 0
    tmux.start([timeline_bin, "tui", "--no-poll", "--db", db_path], env=e2e_env, width=100, height=10)
    tmux.wait_for(lambda screen: long_ascii in screen, timeout=20)
    assert run_timeline("import", "--db", db_path, "-", input=lines[1] + "\n").returncode == 0
    screen = tmux.wait_for(lambda s: "end" in s, timeout=20)
    flag_row = next(line for line in screen.splitlines() if "ドキュメント翻訳" in line)
    assert "ドキュメント翻訳 🇯🇵 end" in flag_row
    assert "x" not in flag_row
    tmux.send_keys("q")
    assert tmux.wait_exit(timeout=20) == 0
