"""Running a generated package's own tests as its CI workflow does, with nothing but loopback.

``python -m pytest`` runs inside a new network namespace (``unshare --net``) whose only interface is
loopback, brought up first: a request for the API's real host, or for an operation's own server,
cannot leave the machine and fails the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# inside the namespace: bring loopback up, then run the generated tests as the workflow does
_SCRIPT = 'ip link set lo up && exec "$0" -m pytest -q -p no:cacheprovider tests'


def run_package_tests_offline(
    package: Path, home: Path, timeout: float = 900
) -> subprocess.CompletedProcess[str]:
    """The package's tests, run in ``package`` with ``home`` as HOME, offline."""
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONDONTWRITEBYTECODE": "1", "HOME": str(home)}
    return subprocess.run(
        ["unshare", "--map-root-user", "--net", "sh", "-c", _SCRIPT, sys.executable],
        cwd=package,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
