"""`scripts/version-stamp.sh`, which the VersionStamp build plugin runs before every build, turns the
top-level VERSION file (the one place the version is written) into `TimelineVersion.string`. Run here on a
scratch package directory, with and without git, so every branch of the script is exercised.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "version-stamp.sh"


def stamp(package: Path, output: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["/bin/sh", str(SCRIPT), str(package), str(output)], capture_output=True, text=True,
                          env={"PATH": os.environ["PATH"], "HOME": str(package)})


def stamped_version(output: Path) -> str:
    match = re.search(r'static let string = "([^"]*)"', (output / "BuildVersion.swift").read_text())
    assert match, (output / "BuildVersion.swift").read_text()
    return match.group(1)


def git(package: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(package), *args], check=True, capture_output=True, text=True,
                          env={"PATH": os.environ["PATH"], "HOME": str(package), "GIT_AUTHOR_NAME": "t",
                               "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@example.com"}).stdout.strip()


def test_outside_git_the_version_is_the_file_exactly(tmp_path):
    (tmp_path / "VERSION").write_text("2.3.4\n")
    result = stamp(tmp_path, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert stamped_version(tmp_path / "out") == "2.3.4"


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_in_a_git_checkout_the_commit_is_added_and_local_changes_say_dirty(tmp_path):
    (tmp_path / "VERSION").write_text("2.3.4\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "VERSION")
    git(tmp_path, "commit", "-q", "-m", "first")
    commit = git(tmp_path, "rev-parse", "--short=7", "HEAD")

    assert stamp(tmp_path, tmp_path / "out").returncode == 0
    assert stamped_version(tmp_path / "out") == f"2.3.4+g{commit}"

    (tmp_path / "VERSION").write_text("2.3.5\n")
    assert stamp(tmp_path, tmp_path / "out").returncode == 0
    assert stamped_version(tmp_path / "out") == f"2.3.5+g{commit}.dirty"


def test_an_unchanged_version_leaves_the_file_untouched_so_nothing_recompiles(tmp_path):
    (tmp_path / "VERSION").write_text("1.0.0\n")
    output = tmp_path / "out"
    assert stamp(tmp_path, output).returncode == 0
    generated = output / "BuildVersion.swift"
    os.utime(generated, ns=(1_000_000_000, 1_000_000_000))
    assert stamp(tmp_path, output).returncode == 0
    assert generated.stat().st_mtime_ns == 1_000_000_000


@pytest.mark.parametrize("content", ["", "1.0 beta", '1.0"; evil()', "1.0\\n"])
def test_a_version_file_that_is_not_one_version_fails_the_build_clearly(tmp_path, content):
    (tmp_path / "VERSION").write_text(content)
    result = stamp(tmp_path, tmp_path / "out")
    assert result.returncode == 1
    assert "VERSION must hold one version" in result.stderr
    assert not (tmp_path / "out" / "BuildVersion.swift").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_package_vendored_inside_another_repository_does_not_take_its_commit(tmp_path):
    git(tmp_path, "init", "-q")
    package = tmp_path / "vendor" / "timeline"
    package.mkdir(parents=True)
    (package / "VERSION").write_text("3.0.0\n")
    assert stamp(package, tmp_path / "out").returncode == 0
    assert stamped_version(tmp_path / "out") == "3.0.0"


@pytest.mark.skipif(shutil.which("script") is None, reason="util-linux `script` (a pty for make) is not installed")
def test_make_build_with_nothing_changed_compiles_nothing_on_a_terminal_either():
    """`make test` built the release binary with its output to a pipe; `make build` on a terminal (as `make demo`
    runs it) must not recompile: SwiftPM's terminal-only flags would change every compile command."""
    if not (REPO / ".build" / "release" / "timeline").exists():
        pytest.skip("no release build here to compare with (make build makes one)")
    for _ in range(2):  # the first settles anything this checkout changed since; the second must do nothing
        result = subprocess.run(["script", "-qec", "make -s build", "/dev/null"], cwd=REPO, capture_output=True,
                                text=True, timeout=900)
        assert result.returncode == 0, result.stdout[-2000:]
    assert "Compiling" not in result.stdout and "Linking" not in result.stdout, result.stdout[-2000:]
