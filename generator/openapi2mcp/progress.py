"""Progress of a generation, as the command line shows it on stderr.

The pipeline reports each stage as it starts through a ``ProgressSink`` (``stage``, ``detail``); it
never prints. ``StageLog`` is the sink the command line uses: on a terminal a one-line bar redrawn
in place (a background thread keeps the elapsed time moving while a long stage such as the pydantic
models runs), elsewhere (CI, a pipe) one plain line per stage with the time the previous stage took.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TextIO

ProgressSink = Callable[[str, str], None]
# the stages of `openapi2mcp generate`, in order; the bar's length follows them
STAGES = ("load", "plan", "render", "format", "write")
_BAR_WIDTH = 20
_TICK_SECONDS = 0.25


def NO_PROGRESS(stage: str, detail: str) -> None:
    """Hears nothing."""


class StageLog:
    """A ``ProgressSink`` writing to ``stream``: a redrawn bar (``bar=True``) or plain lines."""

    def __init__(self, stream: TextIO, *, bar: bool, prefix: str = "openapi2mcp") -> None:
        self._stream = stream
        self._bar = bar
        self._prefix = prefix
        self._started = self._stage_started = time.perf_counter()
        self._stage = ""
        self._detail = ""
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __call__(self, stage: str, detail: str) -> None:
        now = time.perf_counter()
        with self._lock:
            if self._stage and not self._bar:
                self._write(
                    f"{self._prefix}: {self._stage} took {now - self._stage_started:.1f} s\n"
                )
            self._stage, self._detail, self._stage_started = stage, detail, now
            if self._bar:
                self._draw(now)
            else:
                self._write(f"{self._prefix}: [{self._position()}] {stage}: {detail}\n")
        if self._bar and self._ticker is None:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()

    def close(self) -> None:
        """End the display (the bar's line is cleared so the summary starts on a clean line)."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        now = time.perf_counter()
        with self._lock:
            if self._bar:
                self._write("\r\x1b[2K")
            elif self._stage:
                took = now - self._stage_started
                self._write(
                    f"{self._prefix}: {self._stage} took {took:.1f} s; "
                    f"{now - self._started:.1f} s in all\n"
                )

    def _position(self) -> str:
        number = STAGES.index(self._stage) + 1 if self._stage in STAGES else 0
        return f"{number}/{len(STAGES)}"

    def _draw(self, now: float) -> None:
        done = STAGES.index(self._stage) if self._stage in STAGES else 0
        filled = _BAR_WIDTH * done // len(STAGES)
        bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
        line = (
            f"{self._prefix} [{bar}] {self._position()} {self._stage}: {self._detail} "
            f"({now - self._started:.1f} s)"
        )
        self._write("\r\x1b[2K" + line)

    def _tick(self) -> None:
        while not self._stop.wait(_TICK_SECONDS):
            with self._lock:
                self._draw(time.perf_counter())

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()
