"""The OpenAPI documents of real API servers, as they serve them: for the search benchmark.

Prefect's and GNS3's servers (FastAPI applications, installed from PyPI into ``.work/realapis/`` by
``scripts/install_realapis.sh``) are started the way the ``realapi`` tests start them
(``tests/realapis/servers.py``: ``LAUNCHES``), on a free port of 127.0.0.1 with their data in a
temporary directory; each one's live document is written to ``benchmarks/.cache/live/<name>.json``,
where ``search_quality.py`` finds the documents of the APIs its query files name that are not among
``realworld.py``'s specs.

    python benchmarks/live_specs.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
LIVE = HERE / ".cache" / "live"
sys.path.insert(0, str(HERE.parent))

from tests.realapis.servers import LAUNCHES  # noqa: E402


def fetch(name: str) -> Path:
    """Start ``name``'s server, write its live document to ``LIVE``, stop it; the file written."""
    launch = LAUNCHES[name]
    with tempfile.TemporaryDirectory() as home, launch.server(name, Path(home), Path(home)) as up:
        answer = httpx.get(up.root_url + launch.document_path, timeout=30)
        answer.raise_for_status()
    LIVE.mkdir(parents=True, exist_ok=True)
    target = LIVE / f"{name}.json"
    target.write_bytes(answer.content)
    return target


def main() -> None:
    for name in ("prefect", "gns3"):
        target = fetch(name)
        print(f"{name}: {target.stat().st_size:,} bytes in {target}")


if __name__ == "__main__":
    main()
