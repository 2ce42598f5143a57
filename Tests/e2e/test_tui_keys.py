"""End-to-end tests of the TUI's keys for newcomers and experts, in tmux: the real binary on a database fed by
`timeline import` (`--no-poll`). Rejected messages, the header's hints, the search prompt, paging, and the
expert keys (less-like movement, search history, mouse off, pinned tasks)."""
import json
import shutil
import subprocess

import pytest
from timeline_testing.events import event
from timeline_testing.tmux import TerminalProgram

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (make deps installs it)")


@pytest.fixture
def tui_env(tmux, timeline_bin, e2e_env, tmp_path):
    """(feed_lines, start): feed_lines(*lines) imports raw JSON lines (malformed ones are stored as rejected);
    start(...) runs `timeline tui --no-poll` in tmux and waits for the first frame."""
    db = tmp_path / "timeline.db"
    batches = []

    def feed_lines(*lines):
        path = tmp_path / f"batch-{len(batches)}.jsonl"
        batches.append(path)
        path.write_text("".join(line + "\n" for line in lines))
        result = subprocess.run([timeline_bin, "import", "--db", str(db), str(path)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode in (0, 1), f"timeline import failed: {result.stderr}"

    def start(width=100, height=30, extra_env=None, args=(), term=None):
        # tmux sets TERM in the pane itself: another TERM is given on the command line.
        command = [*(["env", f"TERM={term}"] if term else []), timeline_bin, "tui", "--no-poll", "--db", str(db), *args]
        tui = TerminalProgram(tmux, command, {**e2e_env, **(extra_env or {})}, tmp_path, width, height)
        tui.wait_for(lambda s: "FOLLOW" in s)
        return tui

    return feed_lines, start


def test_rejected_messages_are_counted_in_the_header_and_shown_escaped_by_x(tui_env):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("T-1", "a valid task")), "not json at all", '{"title": "\x1b[2Jwiped"}')
    tui = start(width=100, height=30)
    screen = tui.wait_for(lambda s: "2 rejected (X)" in s)
    assert "a valid task" in screen
    tui.keys("X")
    screen = tui.wait_for(lambda s: "Rejected messages" in s)
    assert "2 rejected, newest first" in screen
    assert '{"title": "\\u001B[2Jwiped"}' in screen, screen
    assert screen.index('\\u001B[2Jwiped') < screen.index("not json at all"), "newest first"
    assert "received just now" in screen
    feed_lines("{broken")
    screen = tui.wait_for(lambda s: "{broken" in s)
    assert "3 rejected, newest first" in screen
    tui.keys("Escape")
    screen = tui.wait_for(lambda s: "Rejected messages" not in s)
    assert "3 rejected (X)" in screen and "a valid task" in screen


def test_tasks_waiting_for_the_user_are_counted_once_with_the_key_that_goes_to_them(tui_env):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("Q-1", "Deploy to prod?", "needs_input", age=20)),
               json.dumps(event("Q-2", "Approve the migration?", "needs_input", age=10)),
               json.dumps(event("T-3", "building", "in_progress")))
    for width in (120, 80):
        tui = start(width=width, height=24)
        screen = tui.wait_for(lambda s: "need you (i)" in s)
        header = screen.split("\n")[0]
        assert "2 need you (i)" in header, header
        assert header.count("need you") == 1 and "waiting" not in header, header
        tui.keys("i")
        tui.wait_for(lambda s: "Deploy to prod?" in s and "Esc" in s)
        tui.keys("q", "q")
        assert tui.exit_code() == 0


@pytest.mark.parametrize("lang", ["C.UTF-8", "C"])
def test_a_malformed_query_keeps_its_text_says_why_and_the_header_marks_the_filter(tui_env, lang):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("T-1", "deploy api")), json.dumps(event("T-2", "review")))
    tui = start(width=120, height=24, extra_env={"LANG": lang, "LC_ALL": lang})
    tui.keys("/")
    tui.type("since:abc")
    screen = tui.wait_for(lambda s: "since:abc is not a time" in s)
    lines = screen.split("\n")
    assert lines[23].startswith("/since:abc "), lines[23]
    assert "filter: since:abc" in lines[0], lines[0]
    for width, height in ((80, 24), (20, 5)):
        tui.resize(width, height)
        screen = tui.wait_for(lambda s: tui.tmux.size(tui.pane) == (width, height) and "since:abc is not" in s
                              and "filter: since:abc" in s.split("\n")[0])
        lines = screen.split("\n")
        assert lines[height - 1].startswith("/since:abc"), screen
        assert "filter: since:abc" in lines[0], screen
    tui.keys("Enter")
    screen = tui.wait_for(lambda s: "FOLLOW" in s or "BROWSE" in s)
    assert "filter: since:abc" in screen.split("\n")[0], screen


def test_space_pages_when_every_row_is_unread(tui_env):
    feed_lines, start = tui_env
    feed_lines(*[json.dumps(event(f"T-{i:02d}", f"task {i:02d}", age=100 - i)) for i in range(60)])
    tui = start(width=80, height=24)
    screen = tui.wait_for(lambda s: "row 1 of 60" in s)
    assert "•" in screen, "fresh tasks are unread"
    tui.keys("Space")
    tui.wait_for(lambda s: "row 23 of 60" in s)
    tui.keys("Space")
    tui.wait_for(lambda s: "row 45 of 60" in s)


@pytest.mark.parametrize("term", ["linux", "tmux-256color"])
def test_quitting_leaves_no_status_line_under_the_shell_prompt(tui_env, term):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("T-1", "a task")))
    tui = start(width=80, height=24, term=term)
    tui.wait_for(lambda s: "a task" in s and "? help" in s)
    tui.keys("q")
    screen = tui.wait_for(lambda s: TerminalProgram.EXITED_MARK in s)
    assert tui.exit_code() == 0
    assert "? help" not in screen and "FOLLOW" not in screen and "a task" not in screen, screen


def test_less_keys_g_G_F_previous_error_and_the_quit_keys(tui_env):
    feed_lines, start = tui_env
    feed_lines(*[json.dumps(event(f"T-{i:02d}", f"task {i:02d}", "error" if i in (10, 50) else "info",
                                  age=100 - i)) for i in range(60)])
    tui = start(width=80, height=24)
    tui.wait_for(lambda s: "row 1 of 60" in s)
    tui.keys("G")
    tui.wait_for(lambda s: "row 60 of 60" in s and "BROWSE" in s)
    tui.keys("g")
    tui.wait_for(lambda s: "row 1 of 60" in s and "FOLLOW" in s)
    tui.keys("G")
    tui.wait_for(lambda s: "row 60 of 60" in s)
    tui.keys("E")  # the nearest newer error: task 10 (row 50)
    tui.wait_for(lambda s: "row 50 of 60" in s)
    tui.keys("E")  # then task 50 (row 10)
    tui.wait_for(lambda s: "row 10 of 60" in s)
    tui.keys("F")
    tui.wait_for(lambda s: "row 1 of 60" in s and "FOLLOW" in s)
    tui.keys(":", "q", "Enter")
    assert tui.exit_code() == 0
    tui = start(width=80, height=24)
    tui.keys("F10")
    assert tui.exit_code() == 0


def mouse_reporting(tui) -> bool:
    """Whether the program asked the terminal (tmux) for mouse reports."""
    return tui.tmux._tmux("display-message", "-p", "-t", tui.pane, "#{mouse_any_flag}").strip() == "1"


def test_the_mouse_can_be_left_to_the_terminal_by_setting_and_by_key(tui_env):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("T-1", "a task")))
    tui = start(width=80, height=24)
    tui.wait_for(lambda s: "a task" in s and mouse_reporting(tui))
    tui.keys("M")
    tui.wait_for(lambda s: "mouse off" in s and not mouse_reporting(tui))
    tui.keys("q")
    assert tui.exit_code() == 0
    tui = start(width=80, height=24, extra_env={"TIMELINE_MOUSE": "0"})
    tui.wait_for(lambda s: "a task" in s)
    assert not mouse_reporting(tui)
    tui.keys("M")
    tui.wait_for(lambda s: "mouse on" in s and mouse_reporting(tui))


def test_up_and_down_recall_earlier_searches_after_a_restart(tui_env):
    feed_lines, start = tui_env
    feed_lines(json.dumps(event("D-1", "deploy api")), json.dumps(event("R-1", "review pr", "error")))
    tui = start(width=80, height=24)
    tui.wait_for(lambda s: "deploy api" in s)
    for query in ("status:error", "deploy"):
        tui.keys("/")
        tui.type(query)
        tui.keys("Enter")
        tui.wait_for(lambda s: f"filter: {query}" in s.split("\n")[0] and "/" + query not in s)
        tui.keys("Escape")
        tui.wait_for(lambda s: "filter:" not in s.split("\n")[0])
    tui.keys("q")
    assert tui.exit_code() == 0
    tui = start(width=80, height=24)
    tui.keys("/")
    tui.type("x")
    tui.keys("Up")
    screen = tui.wait_for(lambda s: s.split("\n")[23].startswith("/deploy "))
    assert "review pr" not in screen
    tui.keys("Up")
    screen = tui.wait_for(lambda s: s.split("\n")[23].startswith("/status:error "))
    assert "review pr" in screen and "deploy api" not in screen
    tui.keys("Down", "Down")
    tui.wait_for(lambda s: s.split("\n")[23].startswith("/x "))


def test_a_pinned_task_is_drawn_first_and_stays_pinned_after_a_restart(tui_env):
    feed_lines, start = tui_env
    feed_lines(*[json.dumps(event(f"T-{i:02d}", f"task {i:02d}", age=100 - i)) for i in range(30)])
    tui = start(width=80, height=24)
    tui.wait_for(lambda s: "row 1 of 30" in s)
    tui.keys("G")
    tui.wait_for(lambda s: "row 30 of 30" in s)
    tui.keys("P")
    screen = tui.wait_for(lambda s: "pinned · P unpins" in s)
    assert "task 00" in screen.split("\n")[1], screen
    tui.keys("q")
    assert tui.exit_code() == 0
    tui = start(width=80, height=24)
    screen = tui.wait_for(lambda s: "pinned · P unpins" in s and "task 29" in s)
    lines = screen.split("\n")
    assert "task 00" in lines[1] and "task 29" in lines[3], screen
    tui.keys("G", "P")
    screen = tui.wait_for(lambda s: "pinned ·" not in s and "unpinned" in s)


def test_enter_typed_right_after_a_search_opens_the_first_match(tui_env):
    # A fast typist's "/term⏎⏎" in one burst: the second Enter comes before the filtered rows do, and
    # opens the first match once they are on screen (not the row selected before the search).
    feed_lines, start = tui_env
    lines = [json.dumps(event(f"T-{n}", f"routine task {n}", body=f"body of task {n}")) for n in range(200)]
    lines.insert(20, json.dumps(event("B-1", "deploy billing service", body="the billing deploy body")))
    feed_lines(*lines)
    tui = start(width=80, height=24)
    tui.wait_for(lambda s: "routine task 199" in s)
    tui.keys("/", *"billing", "Enter", "Enter")
    screen = tui.wait_for(lambda s: "History · 1 event" in s)
    assert "the billing deploy body" in screen and "routine task" not in screen
