"""GitHub's published OpenAPI document and a fake GitHub on 127.0.0.1 that answers its examples.

``fetch_spec`` installs the pinned npm package ``@octokit/openapi`` into a cache directory once.
``Router`` reads the document: for each operation the success response (the lowest 2xx, else the
lowest documented status: GitHub's download redirects are 302 only) with, per documented media
type, the first documented example (``examples`` resolved through ``components/examples``, else
``example``). ``FakeGitHub`` finds the operation of each request by method and path template (at
the first segment where two templates differ, a literal beats text around a variable, which beats
a bare variable) and answers that example in the media type the request's ``Accept`` names when it
is documented, else the first documented one. A documented ``Location`` is moved onto the fake (the
generated server follows redirects of GETs), where it serves a small download. Every request is
recorded with the operation it matched and the status it got. ``loopback_overlay`` writes an
OpenAPI Overlay that gives each fixed absolute per-operation server (``https://uploads.github.com``)
a variable, since nothing else lets its requests reach the fake.
"""

from __future__ import annotations

import json
import re
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from tests.kit.locks import installing
from tests.kit.upstream import RecordingUpstream, Reply, Request

NPM_PACKAGE = "@octokit/openapi"
NPM_VERSION = "23.0.2"
SPEC_FILE = "generated/api.github.com.json"
# documented redirects (GitHub's 302s to downloads) point here instead of off the machine
DOWNLOADS = "/_downloads/"
DOWNLOAD = b"an archive"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

# example: the success response has content with a documented example; empty: it has no content;
# no-example: content without an example (answered with {} or an empty body); no-2xx: only a
# non-2xx success (GitHub's 302 redirects to downloads), answered with that status
Kind = Literal["example", "empty", "no-example", "no-2xx"]


def fetch_spec(cache: Path) -> Path:
    """The document from the pinned npm package, installed into ``cache`` unless already there."""
    package = cache / "node_modules" / "@octokit" / "openapi"
    spec = package / SPEC_FILE
    manifest = package / "package.json"
    with installing(cache):
        if not (spec.is_file() and manifest.is_file() and _version(manifest) == NPM_VERSION):
            cache.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix",
                 str(cache), f"{NPM_PACKAGE}@{NPM_VERSION}"],
                check=True,
                capture_output=True,
                timeout=600,
            )  # fmt: skip
    return spec


def _version(manifest: Path) -> str | None:
    version = json.loads(manifest.read_text(encoding="utf-8")).get("version")
    return version if isinstance(version, str) else None


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """``(METHOD, path template, operation, path item)`` for every operation, in document order."""
    found = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            if isinstance(item.get(method), dict):
                found.append((method.upper(), path, item[method], item))
    return found


def loopback_overlay(spec: dict[str, Any], target: Path) -> dict[str, str]:
    """Write an Overlay to ``target`` that turns each fixed absolute per-operation server into a
    variable (default: the original URL); returns variable name -> original URL."""
    actions: list[dict[str, Any]] = []
    variables: dict[str, str] = {}
    for method, path, operation, item in operations(spec):
        for where, owner in (
            (f"$.paths[{_quoted(path)}].{method.lower()}", operation),
            (f"$.paths[{_quoted(path)}]", item),
        ):
            servers = owner.get("servers")
            if not isinstance(servers, list) or not servers:
                continue
            url = str(servers[0].get("url", ""))
            if "{" in url or not url.startswith(("http://", "https://")):
                continue
            name = re.sub(r"[^a-z0-9]+", "_", urlsplit(url).netloc.lower()).strip("_")
            variables[name] = url
            update = {"url": f"{{{name}}}", "variables": {name: {"default": url}}}
            actions.append({"target": f"{where}.servers[0]", "update": update})
    overlay = {
        "overlay": "1.0.0",
        "info": {"title": "loopback", "version": "1"},
        "actions": actions,
    }
    target.write_text(json.dumps(overlay), encoding="utf-8")
    return variables


def _quoted(name: str) -> str:
    return "'" + name.replace("\\", "\\\\").replace("'", "\\'") + "'"


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    kind: Kind
    # media type -> body, in document order ({} when the response documents no content)
    bodies: dict[str, bytes]
    headers: tuple[tuple[str, str], ...]

    def pick(self, accept: str) -> tuple[str, bytes]:
        """The documented media type ``accept`` names exactly, else the first documented one."""
        if not self.bodies:
            return "", b""
        wanted = [part.split(";")[0].strip().lower() for part in accept.split(",")]
        for media in wanted:
            if media in self.bodies:
                return media, self.bodies[media]
        return next(iter(self.bodies.items()))


@dataclass(frozen=True, slots=True)
class Route:
    index: int
    method: str
    template: str
    answer: Answer
    # per path segment: its pattern, and 0 for a literal, 1 for text around variables, 2 for a variable
    segments: tuple[tuple[re.Pattern[str], int], ...]
    loose: re.Pattern[str]  # variables may span slashes

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"

    def rank(self) -> tuple[int, ...]:
        """Lower is more specific: a literal beats a variable at the first segment they differ."""
        return tuple(kind for _, kind in self.segments)


def _pattern(template: str, variable: str) -> str:
    return "".join(
        variable if re.fullmatch(r"\{[^{}]+\}", piece) else re.escape(piece)
        for piece in re.split(r"(\{[^{}]+\})", template)
    )


def _segment(segment: str) -> tuple[re.Pattern[str], int]:
    kind = 2 if re.fullmatch(r"\{[^{}]+\}", segment) else 1 if "{" in segment else 0
    return re.compile(_pattern(segment, "[^/]+?")), kind


def _parts(path: str) -> list[str]:
    return path.strip("/").split("/") if path.strip("/") else []


class Router:
    """Finds the documented operation, and its answer, for a request's method and raw path."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self._spec = spec
        self.resolved_values = 0  # example values that were themselves a $ref to an example
        self.routes: list[Route] = []
        for method, template, operation, _ in operations(spec):
            route = Route(
                len(self.routes),
                method,
                template,
                self._answer(operation),
                tuple(_segment(part) for part in _parts(template)),
                re.compile(_pattern(template.rstrip("/"), "[^/].*?") + "/?"),
            )
            self.routes.append(route)
        self._by_shape: dict[tuple[str, int], list[Route]] = {}
        for route in self.routes:
            self._by_shape.setdefault((route.method, len(route.segments)), []).append(route)

    def find(self, method: str, path: str) -> Route | None:
        parts = _parts(path)
        exact = [
            route
            for route in self._by_shape.get((method, len(parts)), [])
            if all(p.fullmatch(part) for (p, _), part in zip(route.segments, parts, strict=True))
        ]
        if not exact:  # a variable that holds slashes (a file path, a ref)
            exact = [r for r in self.routes if r.method == method and r.loose.fullmatch(path)]
        return min(exact, key=Route.rank, default=None)

    def _resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target: Any = self._spec
            for raw in node["$ref"].removeprefix("#/").split("/"):
                target = target[raw.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def _answer(self, operation: dict[str, Any]) -> Answer:
        responses = operation.get("responses", {})
        codes = sorted(int(code) for code in responses if code.isdigit())
        successes = [code for code in codes if 200 <= code < 300]
        status = successes[0] if successes else min(codes, default=200)
        response = self._resolve(responses.get(str(status), {}))
        content = response.get("content") or {}
        bodies: dict[str, bytes] = {}
        documented = False
        for media, spec in content.items():
            media_spec = self._resolve(spec)
            found, value = self._example(media_spec)
            documented = documented or found
            if found:
                bodies[media.lower()] = _encode(media, value)
            else:
                bodies[media.lower()] = b"{}" if _is_json(media) else b""
        headers = []
        for name, declared in (response.get("headers") or {}).items():
            header = self._resolve(declared)
            if name.lower() == "location" and isinstance(header.get("example"), str):
                headers.append(("Location", header["example"]))
        kind: Kind
        if not successes:
            kind = "no-2xx"
        elif not content:
            kind = "empty"
        else:
            kind = "example" if documented else "no-example"
        return Answer(status, kind, bodies, tuple(headers))

    def _example(self, media: dict[str, Any]) -> tuple[bool, Any]:
        examples = media.get("examples")
        if isinstance(examples, dict) and examples:
            first = self._resolve(next(iter(examples.values())))
            if isinstance(first, dict) and "value" in first:
                value = first["value"]
                if isinstance(value, dict) and set(value) == {"$ref"}:
                    # GitHub sometimes documents the value as a reference to another example
                    self.resolved_values += 1
                    value = self._resolve(value).get("value")
                return True, value
        if "example" in media:
            return True, media["example"]
        return False, None


def _is_json(media: str) -> bool:
    subtype = media.split(";", maxsplit=1)[0].strip().lower().rpartition("/")[2]
    return subtype == "json" or subtype.endswith("+json")


def _encode(media: str, value: Any) -> bytes:
    if isinstance(value, str) and not _is_json(media):
        return value.encode("utf-8")
    return json.dumps(value).encode("utf-8")


@dataclass(frozen=True, slots=True)
class Served:
    method: str
    path: str
    operation: str | None  # "METHOD /template" of the matched route, None when nothing matched
    status: int


class FakeGitHub(RecordingUpstream):
    """``with FakeGitHub(router) as api:`` answers on ``api.url``; ``api.served`` records requests."""

    def __init__(self, router: Router) -> None:
        super().__init__()
        self.router = router
        self.served: list[Served] = []
        self._lock = threading.Lock()

    def answer(self, request: Request) -> Reply:
        path = request.path
        headers: list[tuple[str, str]] = []
        route: Route | None
        if path.startswith(DOWNLOADS):
            # where a documented redirect was sent: the download it stands for
            route = self.router.routes[int(path.removeprefix(DOWNLOADS).split("/")[0])]
            status, media, body = 200, "application/octet-stream", DOWNLOAD
        elif (route := self.router.find(request.method, path)) is None:
            status, media, body = 404, "application/json", b'{"message": "Not Found"}'
        else:
            status = route.answer.status
            accept = next((v for k, v in request.headers if k.lower() == "accept"), "")
            media, body = route.answer.pick(accept)
            for name, value in route.answer.headers:
                # GitHub's documented redirect target, moved to loopback
                target = f"{self.url}{DOWNLOADS}{route.index}{urlsplit(value).path}"
                headers.append((name, target if name == "Location" else value))
        with self._lock:
            key = None if route is None else route.key
            self.served.append(Served(request.method, path, key, status))
        if media:
            headers.append(("Content-Type", media))
        return Reply(status, body, tuple(headers))
