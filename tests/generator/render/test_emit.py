"""Formatting with ruff, atomic writes that refuse foreign directories, and drift checks."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from openapi2mcp.render import emit
from openapi2mcp.render.emit import (
    MARKER,
    Drift,
    FormatError,
    OutputExists,
    check_tree,
    format_tree,
    ruff_command,
    write_tree,
)

MESSY = """\
import sys
import os
from typing import Optional
from .helpers import helper
import httpx
import mypkg.helpers
def f(x:Optional[int])->int:
  return x or len(os.sep)+helper(httpx, mypkg.helpers)
"""

TIDY = """\
import os

import httpx

import mypkg.helpers

from .helpers import helper


def f(x: int | None) -> int:
    return x or len(os.sep) + helper(httpx, mypkg.helpers)
"""


def _tree(**extra: str) -> dict[str, str]:
    files = {
        MARKER: '{"generator": "openapi2mcp"}\n',
        "README.md": "# Generated\n",
        "src/mypkg/__init__.py": "",
        "src/mypkg/server.py": "VALUE = 1\n",
    }
    files.update(extra)
    return files


def _snapshot(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# --- format_tree -------------------------------------------------------------------------------


def test_format_sorts_imports_drops_unused_upgrades_and_formats() -> None:
    files = {
        "src/mypkg/__init__.py": "",
        "src/mypkg/helpers.py": "def helper(*a):\n  return 1\n",
        "src/mypkg/a.py": MESSY,
        "README.md": "text  with   spaces\n",
        # a configuration inside the tree must not change the result (--isolated)
        "pyproject.toml": "[tool.ruff]\nline-length = 20\n[tool.ruff.format]\nquote-style = 'single'\n",
    }
    formatted = format_tree(files)
    assert formatted["src/mypkg/a.py"] == TIDY
    assert formatted["src/mypkg/helpers.py"] == "def helper(*a):\n    return 1\n"
    assert formatted["README.md"] == files["README.md"]
    assert formatted["pyproject.toml"] == files["pyproject.toml"]
    assert set(formatted) == set(files)


def test_format_honours_line_length() -> None:
    call = "result = some_function(argument_number_one, argument_number_two, argument_three)\n"
    assert format_tree({"a.py": call})["a.py"] == call
    assert format_tree({"a.py": call}, line_length=40)["a.py"] == (
        "result = some_function(\n"
        "    argument_number_one,\n"
        "    argument_number_two,\n"
        "    argument_three,\n"
        ")\n"
    )


def test_format_does_not_rename_or_touch_non_python() -> None:
    source = (
        'from typing import List\n\n\ndef camelCase(l: List[int]) -> "List[int]":\n    return l\n'
    )
    formatted = format_tree({"m.py": source, "data.json": '{"a":1}'})
    assert formatted == {
        "m.py": 'def camelCase(l: list[int]) -> "list[int]":\n    return l\n',
        "data.json": '{"a":1}',
    }


def test_format_without_python_files_returns_the_tree() -> None:
    assert format_tree({"README.md": "x"}) == {"README.md": "x"}


def test_format_failure_carries_ruffs_message() -> None:
    with pytest.raises(FormatError) as caught:
        format_tree({"src/mypkg/bad.py": "def f(:\n    pass\n", "src/mypkg/ok.py": "x=1\n"})
    message = str(caught.value)
    assert message.startswith("ruff format failed (exit 2)")
    assert "src/mypkg/bad.py" in message


def test_format_rejects_paths_outside_the_tree() -> None:
    with pytest.raises(ValueError, match="not a safe relative path"):
        format_tree({"../escape.py": "x = 1\n"})


def test_ruff_is_the_one_next_to_the_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert ruff_command() == [str(Path(sys.executable).parent / "ruff")]
    lonely = tmp_path / "bin" / "python"
    lonely.parent.mkdir()
    monkeypatch.setattr(emit.sys, "executable", str(lonely))
    assert ruff_command() == [str(lonely), "-m", "ruff"]


# --- write_tree --------------------------------------------------------------------------------


def test_write_creates_the_tree_with_lf_utf8_and_fixed_modes(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "server"
    write_tree(
        _tree(**{"docs/ünï.txt": "line1\r\nline2\rline3 ✓\n"}), out, force=False, marker=MARKER
    )
    assert _snapshot(out) == {
        MARKER: '{"generator": "openapi2mcp"}\n',
        "README.md": "# Generated\n",
        "docs/ünï.txt": "line1\nline2\nline3 ✓\n",
        "src/mypkg/__init__.py": "",
        "src/mypkg/server.py": "VALUE = 1\n",
    }
    assert (out / "docs" / "ünï.txt").read_bytes() == "line1\nline2\nline3 ✓\n".encode()
    for path in [out, *out.rglob("*")]:
        expected = 0o755 if path.is_dir() else 0o644
        assert stat.S_IMODE(path.stat().st_mode) == expected, path
    assert sorted(p.name for p in tmp_path.joinpath("deep").iterdir()) == ["server"]


def test_regenerating_replaces_the_previous_tree(tmp_path: Path) -> None:
    out = tmp_path / "server"
    write_tree(_tree(**{"src/mypkg/old.py": "OLD = 1\n"}), out, force=False, marker=MARKER)
    write_tree(_tree(**{"src/mypkg/new.py": "NEW = 1\n"}), out, force=False, marker=MARKER)
    assert sorted(_snapshot(out)) == [
        MARKER,
        "README.md",
        "src/mypkg/__init__.py",
        "src/mypkg/new.py",
        "src/mypkg/server.py",
    ]
    assert [p.name for p in tmp_path.iterdir()] == ["server"]


def test_refuses_a_foreign_directory_without_force(tmp_path: Path) -> None:
    out = tmp_path / "project"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(OutputExists, match=r"not generated by openapi2mcp .*--force"):
        write_tree(_tree(), out, force=False, marker=MARKER)
    assert _snapshot(out) == {"notes.txt": "mine"}
    assert [p.name for p in tmp_path.iterdir()] == ["project"]


def test_force_replaces_a_foreign_directory(tmp_path: Path) -> None:
    out = tmp_path / "project"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    write_tree(_tree(), out, force=True, marker=MARKER)
    assert _snapshot(out) == _tree()


def test_an_empty_directory_needs_no_force(tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    write_tree(_tree(), out, force=False, marker=MARKER)
    assert _snapshot(out) == _tree()


def test_refuses_a_file_even_with_force(tmp_path: Path) -> None:
    out = tmp_path / "server"
    out.write_text("a file", encoding="utf-8")
    with pytest.raises(OutputExists, match="is not a directory"):
        write_tree(_tree(), out, force=True, marker=MARKER)
    assert out.read_text(encoding="utf-8") == "a file"


def test_tree_must_carry_its_marker_and_safe_paths(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="marker"):
        write_tree({"a.py": ""}, tmp_path / "out", force=False, marker=MARKER)
    for bad in ("../x.py", "/abs.py", "a//b.py", "a/./b.py", "a\\b.py"):
        with pytest.raises(ValueError, match="not a safe relative path"):
            write_tree(_tree(**{bad: ""}), tmp_path / "out", force=False, marker=MARKER)
    assert list(tmp_path.iterdir()) == []


def test_failed_write_keeps_the_old_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "server"
    write_tree(_tree(), out, force=False, marker=MARKER)
    before = _snapshot(out)
    real_write_bytes = Path.write_bytes

    def failing_write_bytes(self: Path, data: bytes) -> int:
        if self.name == "server.py":
            raise OSError(28, "No space left on device")
        return real_write_bytes(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing_write_bytes)
    with pytest.raises(OSError, match="No space left"):
        write_tree(_tree(**{"new.py": "x = 1\n"}), out, force=False, marker=MARKER)
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["server"]


def test_failed_swap_restores_the_old_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "server"
    write_tree(_tree(), out, force=False, marker=MARKER)
    before = _snapshot(out)
    real_rename = Path.rename

    def failing_rename(self: Path, target: Path) -> Path:
        # moving the new tree into place fails (the old one has already been moved aside)
        if Path(target) == out and ".new-" in self.name:
            raise PermissionError(13, "Permission denied")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", failing_rename)
    with pytest.raises(PermissionError):
        write_tree(_tree(**{"new.py": "x = 1\n"}), out, force=False, marker=MARKER)
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["server"]


def test_kept_paths_survive_regeneration(tmp_path: Path) -> None:
    out = tmp_path / "server"
    generated = _tree(**{"src/mypkg/custom.py": "# fill me in\n"})
    write_tree(generated, out, force=False, marker=MARKER)
    (out / "src" / "mypkg" / "custom.py").write_text("USER = 1\n", encoding="utf-8")
    (out / "user_data").mkdir()
    (out / "user_data" / "notes.md").write_text("notes\n", encoding="utf-8")
    (out / "scratch.txt").write_text("lost\n", encoding="utf-8")

    keep = ["src/mypkg/custom.py", "user_data", "absent.txt"]
    write_tree(generated, out, force=False, marker=MARKER, keep=keep)
    snapshot = _snapshot(out)
    assert snapshot["src/mypkg/custom.py"] == "USER = 1\n"
    assert snapshot["user_data/notes.md"] == "notes\n"
    assert "scratch.txt" not in snapshot
    assert "absent.txt" not in snapshot
    assert check_tree(generated, out, keep=keep) == []


# --- check_tree --------------------------------------------------------------------------------


def test_check_is_empty_when_up_to_date(tmp_path: Path) -> None:
    out = tmp_path / "server"
    write_tree(_tree(), out, force=False, marker=MARKER)
    (out / "src" / "mypkg" / "__pycache__").mkdir()
    (out / "src" / "mypkg" / "__pycache__" / "server.cpython-311.pyc").write_bytes(b"\0")
    (out / "src" / "mypkg" / "stale.pyc").write_bytes(b"\0")
    (out / ".pytest_cache").mkdir()
    (out / ".pytest_cache" / "README.md").write_text("cache", encoding="utf-8")
    assert check_tree(_tree(), out) == []


def test_check_reports_added_removed_and_changed_with_a_diff(tmp_path: Path) -> None:
    out = tmp_path / "server"
    write_tree(_tree(**{"old.py": "OLD = 1\n"}), out, force=False, marker=MARKER)
    (out / "mine.txt").write_text("user file\n", encoding="utf-8")
    wanted = _tree(**{"src/mypkg/server.py": "VALUE = 2\n", "src/mypkg/new.py": "NEW = 1\n"})

    assert check_tree(wanted, out, keep=["mine.txt"]) == [
        Drift("old.py", "removed"),
        Drift(
            "src/mypkg/new.py",
            "added",
        ),
        Drift(
            "src/mypkg/server.py",
            "changed",
            "--- a/src/mypkg/server.py\n+++ b/src/mypkg/server.py\n@@ -1 +1 @@\n-VALUE = 1\n+VALUE = 2\n",
        ),
    ]
    assert [d.path for d in check_tree(wanted, out)][:2] == ["mine.txt", "old.py"]


def test_check_against_a_missing_directory_reports_everything_added(tmp_path: Path) -> None:
    drifts = check_tree(_tree(), tmp_path / "nowhere")
    assert [(d.path, d.kind) for d in drifts] == [(p, "added") for p in sorted(_tree())]


def test_check_diff_handles_a_missing_final_newline(tmp_path: Path) -> None:
    out = tmp_path / "server"
    write_tree(_tree(**{"a.txt": "one\ntwo"}), out, force=False, marker=MARKER)
    [drift] = check_tree(_tree(**{"a.txt": "one\ntwo\n"}), out)
    assert drift == Drift(
        "a.txt", "changed", "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+two\n"
    )
