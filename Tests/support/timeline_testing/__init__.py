"""What every pytest suite of this repository shares (agent-tool/tests and Tests/e2e): one set of SQS fixtures
against a real local server (moto), one tmux harness for the real terminal, bounded waits.

A suite's conftest.py puts Tests/support on sys.path and imports the fixtures it uses by name:

    from timeline_testing.sqs_fixtures import make_queue, queue, sqs, sqs_endpoint  # noqa: F401
    from timeline_testing.tmux import tmux  # noqa: F401
"""

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
for _folder in (REPO_ROOT / "scripts", REPO_ROOT / "agent-tool"):  # sqs_server, the agent tool's modules
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))
