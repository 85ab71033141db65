"""One install at a time into a shared cache: the full test run has pytest processes side by side
(``scripts/test.sh``), and two of them may find the same npm cache missing on a clean checkout.
``installing(cache)`` holds an exclusive lock beside ``cache`` (``fcntl.flock``, released when the
process ends, however it ends); whoever waited finds the cache there once it has the lock."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def installing(cache: Path) -> Iterator[None]:
    """Held while this process checks ``cache`` and installs into it."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    with (cache.parent / f".{cache.name}.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
