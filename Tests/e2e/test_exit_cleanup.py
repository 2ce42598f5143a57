"""The program's end does not pull shared state from under its own threads: OpenSSL (loaded with libcurl, and
for signing) must not register its cleanup to run at exit, where it could free what a transfer or a signature
on another thread still uses (a crash after the last line was printed).

Checked on the real binary with a small preloaded library that reports every `__cxa_atexit` registration and
the library that made it. Needs a C compiler (`cc`), which the Swift toolchain's build already needs.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

REPORTER = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
int __cxa_atexit(void (*f)(void *), void *arg, void *d) {
    static int (*real)(void (*)(void *), void *, void *);
    if (!real) real = (int (*)(void (*)(void *), void *, void *))dlsym(RTLD_NEXT, "__cxa_atexit");
    Dl_info info;
    if (dladdr((void *)f, &info) && info.dli_fname)
        fprintf(stderr, "atexit-registered %s %s\n", info.dli_fname, info.dli_sname ? info.dli_sname : "?");
    return real(f, arg, d);
}
"""


@pytest.fixture
def atexit_reporter(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler (cc) to build the atexit reporter")
    source = tmp_path / "reporter.c"
    source.write_text(REPORTER)
    library = tmp_path / "reporter.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source), "-ldl"], check=True)
    return library


def test_signing_and_sending_leave_no_openssl_cleanup_at_exit(timeline_bin, e2e_env, db_path, atexit_reporter):
    # A drain against a closed port signs its request (libcrypto) and opens a transfer (libcurl, libssl).
    # LD_DEBUG=files names every library the run initialised: proof that libcrypto and libcurl were loaded.
    env = {**e2e_env, "LD_PRELOAD": str(atexit_reporter), "LD_DEBUG": "files"}
    result = subprocess.run(
        [timeline_bin, "drain", "--db", str(db_path), "--queue-url", "http://127.0.0.1:9/123456789012/q",
         "--endpoint-url", "http://127.0.0.1:9", "--region", "us-east-1", "--give-up-after", "1"],
        env=env, capture_output=True, text=True, timeout=120)
    initialised = [line for line in result.stderr.splitlines() if "calling init:" in line]
    for library in ("libcrypto.so", "libcurl.so"):
        assert any(library in line for line in initialised), f"{library} was not loaded:\n{result.stderr[-3000:]}"
    registrations = [line for line in result.stderr.splitlines() if line.startswith("atexit-registered")]
    assert registrations, f"the reporter saw no registration at all (not preloaded?):\n{result.stderr[-2000:]}"
    loaded = [line for line in registrations if "libcrypto" in line or "libssl" in line or "libcurl" in line]
    assert not loaded, "OpenSSL or libcurl registered a cleanup at exit:\n" + "\n".join(loaded)
