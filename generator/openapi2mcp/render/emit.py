"""Formatting, writing and checking the generated tree (``{relative posix path: text or bytes}``).

:func:`format_tree` runs one batched, isolated ``ruff check --fix`` and one ``ruff format`` over every
``.py`` file in a private temporary directory, so the output never depends on the user's ruff
configuration. :func:`write_tree` renders into a sibling temporary directory and swaps it into place, so
a failed generation never leaves a half-written package; it refuses to replace a non-empty directory
that the generator did not create (no marker file) unless forced, and can carry user-owned paths over
from the old tree. :func:`check_tree` reports how the disk differs from the tree, for ``--check``.

Errors: :class:`FormatError` (ruff failed; carries its stderr), :class:`OutputExists` (refusing to
overwrite), ``ValueError`` (a path in the tree is not a safe relative path, or the marker is missing).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

__all__ = [
    "IGNORED_DIRS",
    "MARKER",
    "Drift",
    "FormatError",
    "OutputExists",
    "check_tree",
    "format_tree",
    "ruff_command",
    "write_tree",
]

MARKER = ".openapi2mcp"
# fixes only: import sorting, unused imports, pyupgrade; none of them renames anything
FIX_RULES = ("I", "F401", "UP")
# created by running or testing the generated package, or the repository holding it; never drift
IGNORED_DIRS = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
IGNORED_SUFFIXES = (".pyc", ".pyo")
FILE_MODE = 0o644
DIR_MODE = 0o755
RUFF_TIMEOUT_SECONDS = 600

DriftKind = Literal["added", "removed", "changed"]


class FormatError(Exception):
    """ruff could not format the tree (usually a syntax error in a generated file)."""


class OutputExists(Exception):
    """The output path holds something the generator did not create; pass ``force`` to replace it."""


@dataclass(frozen=True, slots=True)
class Drift:
    """One difference between the generated tree and the disk; ``diff`` is set for changed files."""

    path: str
    kind: DriftKind
    diff: str = ""


def _checked_path(path: str) -> PurePosixPath:
    pure = PurePosixPath(path)
    if (
        not path
        or "\\" in path
        or pure.is_absolute()
        or any(p in ("", ".", "..") for p in path.split("/"))
    ):
        raise ValueError(f"not a safe relative path in the generated tree: {path!r}")
    return pure


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def ruff_command() -> list[str]:
    """The ruff of the running Python environment: the script next to the interpreter, else ``-m ruff``."""
    bindir = Path(sys.executable).parent
    for name in ("ruff", "ruff.exe"):
        candidate = bindir / name
        if candidate.is_file():
            return [str(candidate)]
    return [sys.executable, "-m", "ruff"]


def _run_ruff(args: list[str], cwd: Path) -> None:
    # RUFF_* variables could change the output behind --isolated's back
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUFF_")}
    try:
        done = subprocess.run(
            [*ruff_command(), *args],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=RUFF_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise FormatError(f"could not run ruff {args[0]}: {exc}") from exc
    if done.returncode != 0:
        detail = (done.stderr.strip() or done.stdout.strip()).replace(str(cwd) + os.sep, "")
        raise FormatError(f"ruff {args[0]} failed (exit {done.returncode}): {detail}")


def format_tree(
    files: Mapping[str, str | bytes], *, line_length: int = 100, target: str = "py311"
) -> dict[str, str | bytes]:
    """Return ``files`` with every ``.py`` file fixed and formatted by ruff; other files unchanged."""
    result = dict(files)
    python = sorted(p for p, text in files.items() if p.endswith(".py") and isinstance(text, str))
    if not python:
        return result
    with tempfile.TemporaryDirectory(prefix="openapi2mcp-format-") as tmp:
        root = Path(tmp)
        # laid out as on disk, so ruff tells first-party imports apart exactly as it would there
        for rel in python:
            target_path = root / _checked_path(rel)
            target_path.parent.mkdir(parents=True, exist_ok=True)
            target_path.write_bytes(_encoded(files[rel]))
        common = ["--isolated", "--no-cache", "--target-version", target]
        _run_ruff(
            [
                "check",
                *common,
                "--fix-only",
                "--select",
                ",".join(FIX_RULES),
                "--config",
                f"line-length = {int(line_length)}",
                "--",
                *python,
            ],
            root,
        )
        _run_ruff(["format", *common, "--line-length", str(int(line_length)), "--", *python], root)
        for rel in python:
            result[rel] = (root / rel).read_bytes().decode("utf-8")
    return result


def _is_generated_dir(out: Path, marker: str) -> bool:
    return not any(out.iterdir()) or (out / marker).is_file()


def _encoded(content: str | bytes) -> bytes:
    """A file's bytes: text with LF line ends in UTF-8, binary (compressed data) as it is."""
    return content if isinstance(content, bytes) else _lf(content).encode("utf-8")


def _write_files(root: Path, files: Mapping[str, str | bytes]) -> None:
    root.chmod(DIR_MODE)
    for rel in sorted(files):
        path = root / _checked_path(rel)
        for parent in reversed(path.relative_to(root).parents):
            directory = root / parent
            if not directory.is_dir():
                directory.mkdir()
                directory.chmod(DIR_MODE)
        path.write_bytes(_encoded(files[rel]))
        path.chmod(FILE_MODE)


def _copy_kept(old: Path, new: Path, keep: Iterable[str]) -> None:
    for rel in sorted(set(keep)):
        source = old / _checked_path(rel)
        if not source.exists():
            continue
        destination = new / rel
        if destination.is_dir() and not destination.is_symlink():
            shutil.rmtree(destination)
        destination.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir() and not source.is_symlink():
            shutil.copytree(source, destination, symlinks=True)
        else:
            shutil.copy2(source, destination, follow_symlinks=False)


def _swap(staging: Path, out: Path) -> None:
    if not out.exists() and not out.is_symlink():
        staging.rename(out)
        return
    backup = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    backup.rmdir()  # only the unique name is wanted: rename needs the target not to exist
    out.rename(backup)
    try:
        staging.rename(out)
    except BaseException:
        backup.rename(out)
        raise
    # the new tree is in place; a leftover backup must not turn a successful write into a failure
    if backup.is_dir() and not backup.is_symlink():
        shutil.rmtree(backup, ignore_errors=True)
    else:
        backup.unlink(missing_ok=True)


def write_tree(
    files: Mapping[str, str | bytes],
    out: Path,
    *,
    force: bool,
    marker: str = MARKER,
    keep: Iterable[str] = (),
) -> None:
    """Atomically replace ``out`` with exactly ``files`` (plus the ``keep`` paths of the old tree).

    ``files`` must contain the marker file: it is what later runs recognise the directory by.
    """
    if marker not in files:
        raise ValueError(f"the generated tree lacks its marker file {marker!r}")
    keep = [str(_checked_path(k)) for k in keep]
    for rel in files:
        _checked_path(rel)
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise OutputExists(f"{out} exists and is not a directory; choose another output path")
        if not force and not _is_generated_dir(out, marker):
            raise OutputExists(
                f"{out} is not empty and was not generated by openapi2mcp (no {marker} file); "
                "refusing to overwrite it. Choose an empty directory or pass --force to replace it."
            )
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    try:
        _write_files(staging, files)
        if out.is_dir():
            _copy_kept(out, staging, keep)
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _normalised(content: str | bytes) -> str | bytes:
    return content if isinstance(content, bytes) else _lf(content)


def _ignored(rel: str) -> bool:
    parts = rel.split("/")
    return rel.endswith(IGNORED_SUFFIXES) or any(p in IGNORED_DIRS for p in parts[:-1])


def _under(rel: str, roots: Iterable[str]) -> bool:
    return any(rel == root or rel.startswith(root + "/") for root in roots)


def _disk_files(out: Path) -> list[str]:
    if not out.is_dir():
        return []
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_DIRS)
        base = Path(dirpath).relative_to(out)
        found.extend((base / name).as_posix() for name in filenames)
    return sorted(rel for rel in found if not _ignored(rel))


def _changed(rel: str, expected: str | bytes, path: Path) -> Drift | None:
    try:
        raw = path.read_bytes()
    except OSError:
        return Drift(rel, "changed", f"{rel} is not a readable file\n")
    if isinstance(expected, bytes):
        return (
            None if raw == expected else Drift(rel, "changed", f"{rel}: compressed data differs\n")
        )
    actual = raw.decode("utf-8", errors="replace")
    if actual == expected:
        return None
    diff = difflib.unified_diff(
        actual.splitlines(keepends=True),
        expected.splitlines(keepends=True),
        fromfile=f"a/{rel}",
        tofile=f"b/{rel}",
    )
    return Drift(
        rel, "changed", "".join(line if line.endswith("\n") else line + "\n" for line in diff)
    )


def check_tree(
    files: Mapping[str, str | bytes], out: Path, *, keep: Iterable[str] = ()
) -> list[Drift]:
    """Differences between ``files`` and ``out``, sorted by path; empty when the disk is up to date.

    ``added``: the generator would create it; ``removed``: on disk but no longer generated; ``changed``:
    content differs (with a unified diff from disk to generated). Caches (``__pycache__``, ``.pyc``,
    tool caches) and the user-owned ``keep`` paths that exist on disk are ignored.
    """
    kept = [str(_checked_path(k)) for k in keep]
    on_disk = set(_disk_files(out))
    drifts: list[Drift] = []
    for rel in sorted(set(files) | on_disk):
        if rel in on_disk and _under(rel, kept):
            continue
        if rel not in on_disk:
            drifts.append(Drift(_checked_path(rel).as_posix(), "added"))
        elif rel not in files:
            drifts.append(Drift(rel, "removed"))
        elif (drift := _changed(rel, _normalised(files[rel]), out / rel)) is not None:
            drifts.append(drift)
    return drifts
