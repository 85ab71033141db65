"""MCPB desktop bundles (``openapi2mcp bundle``): a generated package as one ``.mcpb`` file.

A bundle is a zip with ``manifest.json`` at its root (MCPB manifest 0.3, the newest version that is not
marked experimental) and a ``python`` server as the MCPB documentation prescribes: the package's
``src/<pkg>`` tree under ``server/``, a ``server/main.py`` entry point that serves MCP over stdio, and the
package's dependencies vendored in ``server/lib`` (put on ``PYTHONPATH`` by ``mcp_config.env``). The
dependencies are copied from the distributions installed in the Python environment running openapi2mcp,
after checking them against the package's requirements (nothing is downloaded); when one of them is
compiled the manifest's ``compatibility`` names this platform and, for a build tied to one CPython, this
Python version. Everything the manifest says about the API comes from the package itself: the settings
offered to the user (``user_config``, wired into the environment as ``${user_config.<key>}``) are the
variables of the catalog's ``upstream`` section — base URL, timeout, server URL variables, the security
schemes' credentials and the extra headers, the secret ones marked ``sensitive`` — and name, version,
description, licence and author come from ``pyproject.toml``. The archive is deterministic: sorted entries,
one fixed timestamp and file mode, so rebuilding an unchanged package gives the same bytes. Problems are a
one-line :class:`BundleError`; what the user should know (an author left unset) is returned as warnings.
"""

from __future__ import annotations

import io
import json
import re
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from .shipped import runtime_module

__all__ = ["MANIFEST_VERSION", "Bundle", "BundleError", "build_bundle", "write_bundle"]

MANIFEST_VERSION: Final = "0.3"
MARKER: Final = ".openapi2mcp"
ENTRY_POINT: Final = "server/main.py"
LIB_DIR: Final = "server/lib"
UNSET_AUTHOR: Final = "unknown (set with openapi2mcp bundle --author)"
# the earliest time a zip entry can carry: every build stamps the same one
_ZIP_TIME: Final = (1980, 1, 1, 0, 0, 0)
_FILE_MODE: Final = 0o100644
_UNIX: Final = 3
# installer bookkeeping: differs between installations and means nothing inside a bundle
_INSTALL_RECORDS: Final = frozenset({"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"})
_COMPILED_SUFFIXES: Final = frozenset({".so", ".pyd", ".dylib"})
_MCPB_PLATFORMS: Final = frozenset({"darwin", "linux", "win32"})
_AUTHOR = re.compile(r"(?P<name>[^<>]*?)\s*<(?P<email>[^<>\s]+@[^<>\s]+)>")


class BundleError(Exception):
    """The directory cannot be bundled; the message is one line saying why."""


@dataclass(frozen=True, slots=True)
class Bundle:
    """A built bundle: its manifest, the other files by archive path, and warnings for the user."""

    name: str
    version: str
    manifest: dict[str, Any]
    files: Mapping[str, bytes]
    warnings: tuple[str, ...] = ()

    @property
    def file_name(self) -> str:
        return f"{self.name}-{self.version}.mcpb"

    def archive(self) -> bytes:
        """The ``.mcpb`` zip: entries sorted, one timestamp and mode, so the same bundle gives the
        same bytes (with the same zlib)."""
        manifest = json.dumps(self.manifest, ensure_ascii=False, indent=2) + "\n"
        entries = {"manifest.json": manifest.encode("utf-8"), **self.files}
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for path in sorted(entries):
                info = zipfile.ZipInfo(path, _ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = _UNIX
                info.external_attr = _FILE_MODE << 16
                archive.writestr(info, entries[path], compresslevel=9)
        return buffer.getvalue()


def write_bundle(bundle: Bundle, path: Path) -> int:
    """Write the archive to ``path`` atomically; returns its size in bytes."""
    data = bundle.archive()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".partial", delete=False) as out:
            out.write(data)
        Path(out.name).replace(path)
    except OSError as exc:
        raise BundleError(f"cannot write {path}: {exc.strerror or exc}") from exc
    return len(data)


@dataclass(frozen=True, slots=True)
class _Package:
    root: Path
    project: Mapping[str, Any]
    module: str
    index: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.project["name"])


def build_bundle(package_dir: Path, *, author: str | None = None) -> Bundle:
    """Bundle the generated package in ``package_dir``; ``author`` is ``Name`` or ``Name <email>``."""
    package = _read_package(package_dir)
    author_entry, warnings = _author(author, package)
    dependencies = [str(dep) for dep in package.project.get("dependencies", [])]
    vendored, compiled, cpython = _vendor(dependencies, package.name)
    files = {**_server_files(package), **{f"{LIB_DIR}/{p}": data for p, data in vendored.items()}}
    lowest = _lowest_python(str(package.project.get("requires-python", "")))
    python = (cpython, (cpython[0], cpython[1] + 1)) if cpython else (lowest, None)
    files[ENTRY_POINT] = _entry_point(package, *python).encode("utf-8")
    manifest = _manifest(package, author_entry, compiled=compiled, python=python)
    return Bundle(package.name, str(package.project["version"]), manifest, files, warnings)


def _read_package(root: Path) -> _Package:
    if not root.is_dir():
        raise BundleError(f"{root}: no such directory")
    if not (root / MARKER).is_file():
        raise BundleError(f"{root} is not a package generated by openapi2mcp (no {MARKER} file)")
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"]
        name, _version = str(project["name"]), str(project["version"])
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError) as exc:
        raise BundleError(f"cannot read the [project] of {root / 'pyproject.toml'}: {exc}") from exc
    scripts: Mapping[str, str] = project.get("scripts", {})
    target = scripts.get(name) or next(iter(scripts.values()), "")
    module = target.split(":")[0].split(".")[0]
    if not module.isidentifier() or not (root / "src" / module).is_dir():
        raise BundleError(f"{root / 'pyproject.toml'} names no console script of a package in src/")
    index_path = root / "src" / module / "catalog.index.json"
    try:
        index = json.loads(index_path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise BundleError(f"cannot read {index_path} (regenerate the package): {exc}") from exc
    if not isinstance(index, dict) or not isinstance(index.get("upstream"), dict):
        raise BundleError(f"{index_path} has no upstream section (regenerate the package)")
    return _Package(root, project, module, index)


def _server_files(package: _Package) -> dict[str, bytes]:
    """The package's own tree under ``server/`` (bytecode left out) and its licence files."""
    source = package.root / "src" / package.module
    files = {
        f"server/{package.module}/{path.relative_to(source).as_posix()}": path.read_bytes()
        for path in sorted(source.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.relative_to(source).parts
        and path.suffix not in {".pyc", ".pyo"}
    }
    for path in sorted(package.root.glob("LICENSE*")):
        if path.is_file():
            files[path.name] = path.read_bytes()
    return files


def _vendor(
    dependencies: Sequence[str], needed_by: str
) -> tuple[dict[str, bytes], bool, tuple[int, int] | None]:
    """The installed files of the dependency closure, keyed by path under ``site-packages``.

    Also says whether any of them is compiled, and the CPython version a compiled one is tied to
    (``None`` when every compiled part is abi3 or there is none).
    """
    pending = [(_requirement(dep, needed_by), needed_by, frozenset({""})) for dep in dependencies]
    done: set[tuple[str, frozenset[str]]] = set()
    files: dict[str, bytes] = {}
    compiled = False
    cpython: tuple[int, int] | None = None
    while pending:
        requirement, parent, parent_extras = pending.pop(0)
        marker = requirement.marker
        if marker is not None and not any(marker.evaluate({"extra": e}) for e in parent_extras):
            continue
        dist = _installed(requirement, parent)
        name = canonicalize_name(dist.metadata["Name"])
        key = (name, frozenset(requirement.extras))
        if key in done:
            continue
        if not any(n == name for n, _ in done):
            files.update(_dist_files(dist, name))
            binary, tied = _wheel_kind(dist)
            compiled = compiled or binary
            cpython = cpython or tied
        done.add(key)
        extras = frozenset({"", *requirement.extras})
        pending += [(_requirement(r, name), name, extras) for r in dist.requires or []]
    return files, compiled, cpython


def _requirement(text: str, needed_by: str) -> Requirement:
    try:
        return Requirement(text)
    except InvalidRequirement as exc:
        raise BundleError(f"{needed_by} has an unreadable requirement {text!r}: {exc}") from exc


def _installed(requirement: Requirement, needed_by: str) -> metadata.Distribution:
    try:
        dist = metadata.distribution(requirement.name)
    except metadata.PackageNotFoundError:
        raise BundleError(
            f"{requirement} (needed by {needed_by}) is not installed in the Python environment "
            f"running openapi2mcp, whose packages the bundle carries: install the generated "
            f"package there first (pip install PACKAGE_DIR)"
        ) from None
    if not requirement.specifier.contains(dist.version, prereleases=True):
        raise BundleError(
            f"{needed_by} needs {requirement}, but {dist.metadata['Name']} {dist.version} is "
            f"installed in the Python environment running openapi2mcp"
        )
    return dist


def _dist_files(dist: metadata.Distribution, name: str) -> Iterator[tuple[str, bytes]]:
    if _editable(dist):
        raise BundleError(f"{name} is installed in editable mode; install it normally to bundle it")
    if dist.files is None:
        raise BundleError(f"{name} is installed without a RECORD of its files; reinstall it")
    for file in dist.files:
        parts = file.parts
        if (
            not parts
            or parts[0] == ".."
            or file.is_absolute()
            or "__pycache__" in parts
            or file.suffix in {".pyc", ".pyo"}
            or (parts[0].endswith(".dist-info") and file.name in _INSTALL_RECORDS)
        ):
            continue  # scripts outside site-packages, bytecode and installer bookkeeping
        try:
            data = Path(str(dist.locate_file(file))).read_bytes()
        except OSError as exc:
            raise BundleError(f"cannot read {file} of {name}: {exc.strerror or exc}") from exc
        yield file.as_posix(), data


def _editable(dist: metadata.Distribution) -> bool:
    try:
        origin = json.loads(dist.read_text("direct_url.json") or "{}")
    except ValueError:
        return False
    return isinstance(origin, dict) and bool(origin.get("dir_info", {}).get("editable"))


def _wheel_kind(dist: metadata.Distribution) -> tuple[bool, tuple[int, int] | None]:
    """(compiled, the CPython version it is tied to) from the WHEEL file's purelib flag and tags."""
    wheel = dist.read_text("WHEEL")
    if wheel is None:  # not installed from a wheel: judged by its files, conservatively
        binary = any(f.suffix in _COMPILED_SUFFIXES for f in dist.files or [])
        return binary, sys.version_info[:2] if binary else None
    fields = [line.partition(":")[::2] for line in wheel.splitlines()]
    if any(k.strip() == "Root-Is-Purelib" and v.strip() == "true" for k, v in fields):
        return False, None
    abis = {v.strip().split("-")[1] for k, v in fields if k.strip() == "Tag" and v.count("-") == 2}
    tied = bool(abis - {"none", "abi3"})
    return True, sys.version_info[:2] if tied else None


def _lowest_python(requires: str) -> tuple[int, int] | None:
    try:
        lowest = [Version(s.version).release for s in SpecifierSet(requires) if s.operator == ">="]
    except (InvalidSpecifier, InvalidVersion):
        return None
    return max((r[0], r[1] if len(r) > 1 else 0) for r in lowest) if lowest else None


def _python_range(low: tuple[int, int] | None, high: tuple[int, int] | None) -> str:
    bounds = [f">={low[0]}.{low[1]}"] if low else []
    return ",".join(bounds + ([f"<{high[0]}.{high[1]}"] if high else []))


def _entry_point(
    package: _Package, low: tuple[int, int] | None, high: tuple[int, int] | None
) -> str:
    # kept to syntax any Python 3 reads, so an interpreter too old says so instead of failing
    low_code = repr(low or (3, 0))
    check = f"{low_code} <= sys.version_info[:2]"
    if high:
        check += f" < {high!r}"
    wanted = repr(f"{package.name} needs Python {_python_range(low, high)}; this is ")
    return (
        '"""The entry point of this MCP bundle: serves MCP over stdio."""\n\n'
        "import sys\n\n"
        f"if not {check}:\n"
        f"    sys.exit({wanted} + sys.version.split()[0])\n\n"
        f"from {package.module}.__main__ import main\n\n"
        "main()\n"
    )


def _author(option: str | None, package: _Package) -> tuple[dict[str, str], tuple[str, ...]]:
    if option is not None:
        match = _AUTHOR.fullmatch(option.strip())
        if match:
            return {"name": match["name"] or match["email"], "email": match["email"]}, ()
        if not option.strip() or "<" in option or ">" in option:
            raise BundleError(f"--author {option!r} is not 'Name' or 'Name <email@example.com>'")
        return {"name": option.strip()}, ()
    for entry in package.project.get("authors", []):
        name, email = (str(entry.get(k) or "") for k in ("name", "email"))
        if name or email:
            return {"name": name or email} | ({"email": email} if email else {}), ()
    warning = (
        f"no author: {package.root / 'pyproject.toml'} names none, so the manifest says "
        f"{UNSET_AUTHOR!r}; pass --author 'Name <email>' (or regenerate the package with an author)"
    )
    return {"name": UNSET_AUTHOR}, (warning,)


def _manifest(
    package: _Package,
    author: dict[str, str],
    *,
    compiled: bool,
    python: tuple[tuple[int, int] | None, tuple[int, int] | None],
) -> dict[str, Any]:
    project, index = package.project, package.index
    settings = _user_config(index["upstream"])
    env = {setting_env: f"${{user_config.{key}}}" for key, (setting_env, _) in settings.items()}
    mcp_config: dict[str, Any] = {
        "command": "python3",
        "args": [f"${{__dirname}}/{ENTRY_POINT}"],
        "env": {**env, "PYTHONPATH": f"${{__dirname}}/{LIB_DIR}"},
    }
    platforms = [sys.platform] if compiled and sys.platform in _MCPB_PLATFORMS else []
    if not platforms or "win32" in platforms:  # python.org installs python.exe, not python3
        mcp_config["platform_overrides"] = {"win32": {"command": "python"}}
    server = index.get("server", {})
    manifest: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "name": package.name,
        "display_name": str(server.get("title") or package.name),
        "version": str(project["version"]),
        "description": str(project.get("description") or f"MCP server {package.name}"),
        "author": author,
        "server": {"type": "python", "entry_point": ENTRY_POINT, "mcp_config": mcp_config},
        "tools": [{"name": name} for name in _tool_names(index)],
    }
    if keywords := [str(k) for k in project.get("keywords", [])]:
        manifest["keywords"] = keywords
    if isinstance(project.get("license"), str):
        manifest["license"] = project["license"]
    compatibility: dict[str, Any] = {"platforms": platforms} if platforms else {}
    if runtime := _python_range(*python):
        compatibility["runtimes"] = {"python": runtime}
    if compatibility:
        manifest["compatibility"] = compatibility
    manifest["user_config"] = {key: option for key, (_, option) in settings.items()}
    return manifest


def _user_config(upstream: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """``user_config`` key → (environment variable, option), in the order the README lists them."""
    base_env = str(upstream.get("baseUrlEnv", "MCP_BASE_URL"))
    # as the runtime derives it (``upstream.env_prefix``)
    prefix = base_env.removesuffix("_BASE_URL") if base_env.endswith("_BASE_URL") else "MCP"
    url = str(upstream.get("baseUrl", ""))
    if not url.startswith(("http://", "https://")):
        base = _option("API base URL", "Base URL of the API (its description names none)")
    elif "server" in upstream:  # a base URL set replaces the server URL and its variables
        about = f"Base URL of the API (default: {url}, with the server variables below)"
        base = _option("API base URL", about, default="")
    else:
        base = _option("API base URL", "Base URL of the API", default=url)
    options = [(base_env, base)]
    if timeout := upstream.get("timeoutEnv"):
        about = "Timeout of one request to the API, in seconds"
        seconds = float(upstream.get("timeoutSeconds", 30))
        seconds = int(seconds) if seconds.is_integer() else seconds  # 30, as people write it
        options.append((timeout, _option("Timeout (seconds)", about, default=seconds)))
    schemes = runtime_module("upstream.schemes")
    try:
        strategies = schemes.strategies(upstream.get("securitySchemes", {}))
    except runtime_module("errors").CatalogError as exc:  # an unknown type: not a package of ours
        raise BundleError(f"catalog.index.json: {exc}") from None
    for scheme_name, scheme in strategies.items():
        sent = f", sent as {scheme.sent_as()}" if isinstance(scheme, schemes.ApiKey) else ""
        for setting in scheme.environment():
            title = f"{setting.label} ({scheme_name})" if len(strategies) > 1 else setting.label
            about = f"{setting.label} for the security scheme {scheme_name!r}{sent}"
            option = _option(title, about, secret=setting.secret, default="")
            options.append((setting.env, option))
    about = 'Headers for every call to the API, as a JSON object: {"Authorization": "Bearer …"}'
    options.append((f"{prefix}_HEADERS", _option("Extra headers", about, secret=True, default="")))
    server: Mapping[str, Any] = upstream.get("server", {})
    for variable, spec in server.get("variables", {}).items():
        about = f"Variable {{{variable}}} of the server URL {server['url']}"
        about += f" (one of {', '.join(map(str, spec['enum']))})" if spec.get("enum") else ""
        default = spec.get("default")
        options.append((spec["env"], _option(f"Server {variable}", about, default=default)))
    return {env.removeprefix(f"{prefix}_").lower(): (env, option) for env, option in options}


def _option(
    title: str, description: str, *, secret: bool = False, default: str | float | None = None
) -> dict[str, Any]:
    """A ``user_config`` entry; required exactly when it has no default.

    Optional secrets default to ``""``: an MCPB host leaves ``${user_config.<key>}`` as it is when a
    value is missing, and the server reads an empty variable as unset.
    """
    kind = "number" if isinstance(default, int | float) else "string"
    option: dict[str, Any] = {"type": kind, "title": title, "description": description}
    if secret:
        option["sensitive"] = True
    option["required"] = default is None
    if default is not None:
        option["default"] = default
    return option


def _tool_names(index: Mapping[str, Any]) -> list[str]:
    """The tools ``tools/list`` shows in the generated tool mode."""
    mode = index.get("toolMode", {})
    meta = {"dynamic": "dynamicTools", "code": "codeTools"}.get(mode.get("mode", ""))
    if meta is not None:  # three meta tools, whatever the size of the API
        return [str(tool["name"]) for tool in index.get(meta, [])]
    names = [str(name) for name in index.get("toolNames", [])]
    if mode.get("mode") == "toolsets":
        toolsets = index.get("toolsets", {})
        chosen = {t for name in mode.get("toolsets", []) for t in toolsets[name]["tools"]}
        names = [name for name in names if name in chosen]
    return names
