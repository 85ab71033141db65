"""Tokens that enter a model's context on multi-step agent tasks, per tool mode (issue 19, item 6).

A scripted agent (no LLM: each task is the fixed sequence of MCP requests a capable model would make)
solves realistic tasks against a fake GitHub on 127.0.0.1, through a server generated from GitHub's
own REST description (``--spec github``, 1,186 operations, the npm package ``@octokit/openapi`` pinned
by ``realworld.py`` and installed into its cache) or, with ``--spec synthetic``, from the GitHub-like
document of the tests (``tests/bigapi/github_like.py``, given GitHub's parameters and label objects on
the operations the tasks use). The server runs over stdio with the official ``mcp`` client, once per
mode (``<PREFIX>_TOOL_MODE``):

- ``full``: ``tools/list`` (every page), then the operations' own tools;
- ``dynamic``: ``tools/list``, then ``search_operations`` until the operation is among the hits,
  ``describe_operation`` once per operation, and ``call_operation`` for each call;
- ``dynamic + _select``: the same, each read call carrying a JMESPath projection (the catalog's
  ``selectArgument``) so that only what the task needs comes back;
- ``code``: ``tools/list``, search and describe as above, then one ``run_code`` whose program calls
  the operations and returns only the answer. Shown as ``n/a`` while the server refuses the mode or
  does not list ``run_code``.

Counted with o200k_base, offline with the ``bpe-openai`` package (from this environment, else the
one ``compare_fastmcp.py`` keeps in ``benchmarks/.cache/fastmcp-venv``, else installed into
``benchmarks/.cache/tokens-venv``). Counted is what a client puts before the model: the server's
instructions and each listed tool as a client renders it (name, description, inputSchema,
outputSchema: one compact JSON object per tool), the name and arguments of every tool call the model
writes, and every tool result it reads (each text block, plus ``structuredContent`` when present, as
compact JSON). Protocol envelopes and the handshake are not counted: they never reach the model.
Each task is a conversation of its own, so each pays for the tool listing. The agent reads its
answer from what it was given (in full and dynamic modes it applies the same JMESPath expression to
the whole response that the projection sends to the server), and every cell says whether that answer
is the right one (``ok``/``FAIL``), so the figures are for runs that worked. Figures, not
assertions.

    python benchmarks/agent_tokens.py [--spec github|synthetic] [--only TASK[,TASK]] [-v]

Tasks (``TASKS``): ``bug-titles`` (one filtered, sorted list call), ``no-description`` (one list of
full repository objects, filtered by the reader), ``last-commenter`` (the oldest open pull request,
then its comments: the second call needs the first's answer), ``close-duplicates`` (a list, then one
write per issue found; the fake's state is checked afterwards). Per task and mode the table shows
MCP requests (``tools/list`` pages and ``tools/call``s), tokens of the listing (instructions and
tools), of what the model wrote and of what it read, their total, the share of full mode's total,
and the verdict; then code/full against the issue's target (at most 0.25) and a summary line. ``-v``
adds each call's tokens.

The fake's people, repositories and titles are in ``benchmarks/agent_tasks/world.json``; payloads
get GitHub's shapes (users, labels, URLs, reactions, full repositories in pull requests) so that
responses are as large as real ones.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import base64
import copy
import importlib.util
import json
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import venv
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import parse_qsl, urlsplit

import jmespath  # type: ignore[import-untyped]
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
WORLD = HERE / "agent_tasks" / "world.json"
TOKENS_VENV = HERE / ".cache" / "tokens-venv"
API, WEB = "https://api.github.com", "https://github.com"
MODES = ("full", "dynamic", "dynamic + _select", "code")
SERVER_MODE = {"full": "full", "dynamic": "dynamic", "dynamic + _select": "dynamic", "code": "code"}
TARGET = 0.25  # the issue's bar: code mode at most a quarter of full mode's tokens on each task


# -- the fake GitHub's content -----------------------------------------------------------------


def node_id(kind: str, ident: int) -> str:
    return base64.b64encode(f"0{len(kind)}:{kind}{ident}".encode()).decode()


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def user(login: str, ident: int) -> dict[str, Any]:
    url = f"{API}/users/{login}"
    return {
        "login": login, "id": ident, "node_id": node_id("User", ident),
        "avatar_url": f"https://avatars.githubusercontent.com/u/{ident}?v=4", "gravatar_id": "",
        "url": url, "html_url": f"{WEB}/{login}", "followers_url": f"{url}/followers",
        "following_url": f"{url}/following{{/other_user}}", "gists_url": f"{url}/gists{{/gist_id}}",
        "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
        "subscriptions_url": f"{url}/subscriptions", "organizations_url": f"{url}/orgs",
        "repos_url": f"{url}/repos", "events_url": f"{url}/events{{/privacy}}",
        "received_events_url": f"{url}/received_events", "type": "User",
        "user_view_type": "public", "site_admin": False,
    }  # fmt: skip


def reactions(url: str, rng: random.Random) -> dict[str, Any]:
    counts = {key: rng.choice((0, 0, 0, 1, 2)) for key in ("+1", "-1", "laugh", "hooray")}
    counts |= {key: rng.choice((0, 0, 1)) for key in ("confused", "heart", "rocket", "eyes")}
    return {"url": f"{url}/reactions", "total_count": sum(counts.values()), **counts}


def repository(
    owner: dict[str, Any], name: str, description: str | None, ident: int, rng: random.Random
) -> dict[str, Any]:
    full = f"{owner['login']}/{name}"
    url = f"{API}/repos/{full}"
    created = datetime(2012, 3, 1, tzinfo=UTC) + timedelta(hours=rng.randrange(90_000))
    pushed = created + timedelta(hours=rng.randrange(1, 20_000))
    templated = {
        "keys": "{/key_id}", "collaborators": "{/collaborator}", "teams": "", "hooks": "",
        "issue_events": "/issues/events{/number}", "events": "", "assignees": "{/user}",
        "branches": "{/branch}", "tags": "", "blobs": "/git/blobs{/sha}",
        "git_tags": "/git/tags{/sha}", "git_refs": "/git/refs{/sha}", "trees": "/git/trees{/sha}",
        "statuses": "/statuses/{sha}", "languages": "", "stargazers": "", "contributors": "",
        "subscribers": "", "subscription": "", "commits": "{/sha}",
        "git_commits": "/git/commits{/sha}", "comments": "{/number}",
        "issue_comment": "/issues/comments{/number}", "contents": "/contents/{+path}",
        "compare": "/compare/{base}...{head}", "merges": "", "archive": "/{archive_format}{/ref}",
        "downloads": "", "issues": "{/number}", "pulls": "{/number}", "milestones": "{/number}",
        "notifications": "{?since,all,participating}", "labels": "{/name}",
        "releases": "{/id}", "deployments": "",
    }  # fmt: skip
    urls = {
        f"{key}_url": f"{url}{suffix if suffix.startswith('/') else f'/{key}{suffix}'}"
        for key, suffix in templated.items()
    }
    stars = rng.randrange(0, 400)
    issues = rng.randrange(0, 40)
    return {
        "id": ident, "node_id": node_id("Repository", ident), "name": name, "full_name": full,
        "private": rng.random() < 0.2, "owner": owner, "html_url": f"{WEB}/{full}",
        "description": description, "fork": name.startswith("fork-"), "url": url,
        "forks_url": f"{url}/forks", **urls,
        "created_at": stamp(created), "updated_at": stamp(pushed), "pushed_at": stamp(pushed),
        "git_url": f"git://github.com/{full}.git", "ssh_url": f"git@github.com:{full}.git",
        "clone_url": f"{WEB}/{full}.git", "svn_url": f"{WEB}/{full}", "homepage": None,
        "size": rng.randrange(10, 90_000), "stargazers_count": stars, "watchers_count": stars,
        "language": rng.choice(("TypeScript", "Python", "Rust", "Go", "Ruby", "Shell", None)),
        "has_issues": True, "has_projects": True, "has_downloads": True, "has_wiki": True,
        "has_pages": False, "has_discussions": False, "forks_count": stars // 7,
        "mirror_url": None, "archived": False, "disabled": False, "open_issues_count": issues,
        "license": {
            "key": "mit", "name": "MIT License", "spdx_id": "MIT",
            "url": f"{API}/licenses/mit", "node_id": "MDc6TGljZW5zZTEz",
        },
        "allow_forking": True, "is_template": False, "web_commit_signoff_required": False,
        "topics": [], "visibility": "public", "forks": stars // 7, "open_issues": issues,
        "watchers": stars, "default_branch": "main",
        "permissions": {"admin": True, "maintain": True, "push": True, "triage": True,
                        "pull": True},
    }  # fmt: skip


LABELS = {
    "bug": ("d73a4a", "Something isn't working"),
    "enhancement": ("a2eeef", "New feature or request"),
    "documentation": ("0075ca", "Improvements or additions to documentation"),
    "question": ("d876e3", "Further information is requested"),
    "duplicate": ("cfd3d7", "This issue or pull request already exists"),
    "good first issue": ("7057ff", "Good for newcomers"),
    "help wanted": ("008672", "Extra attention is needed"),
    "a11y": ("fbca04", "Accessibility"),
    "dependencies": ("0366d6", "Pull requests that update a dependency file"),
}


def label(repo_url: str, name: str) -> dict[str, Any]:
    ident = 208_045_000 + sorted(LABELS).index(name)
    color, description = LABELS[name]
    return {
        "id": ident, "node_id": node_id("Label", ident),
        "url": f"{repo_url}/labels/{name.replace(' ', '%20')}", "name": name,
        "color": color, "default": name in ("bug", "enhancement", "documentation", "question"),
        "description": description,
    }  # fmt: skip


@dataclass
class World:
    """What the fake serves; writes change it (``FakeGitHub.reset`` builds it anew)."""

    me: dict[str, Any]
    repositories: list[dict[str, Any]]  # what /user/repos can list, the caller's own first
    issues: dict[int, dict[str, Any]]  # octo-org/widgets' issues, pull requests included
    pulls: dict[int, dict[str, Any]]
    comments: dict[int, list[dict[str, Any]]]
    owner: str = ""
    repo: str = ""


def build_world(content: dict[str, Any]) -> World:
    rng = random.Random(19)
    people = {login: user(login, 583_231 + 17 * i) for i, login in enumerate(content["people"])}
    me = people[content["me"]]
    org = {**user(content["org"], 9_919), "type": "Organization"}
    owners = {**people, content["org"]: org}
    repositories = [
        repository(me, name, description, 1_296_269 + i, rng)
        for i, (name, description) in enumerate(content["my_repositories"])
    ] + [
        repository(owners[login], name, description, 2_296_269 + i, rng)
        for i, (login, name, description) in enumerate(content["other_repositories"])
    ]
    widgets = next(r for r in repositories if r["full_name"].endswith(f"/{content['repo']}"))
    kinds = [(kind, title) for kind, titles in content["titles"].items() for title in titles]
    kinds += [("pull", title) for title in content["pull_titles"]]
    rng.shuffle(kinds)
    world = World(me, repositories, {}, {}, {}, content["org"], content["repo"])
    start = datetime(2024, 1, 8, 9, 0, tzinfo=UTC)
    logins = list(people)
    duplicates, oldest_open_pull = 0, True
    for number, (kind, title) in enumerate(kinds, start=1):
        created = start + timedelta(hours=37 * number, minutes=rng.randrange(600))
        updated = created + timedelta(minutes=rng.randrange(60, 400 * 1440), seconds=number)
        if kind == "duplicate":
            duplicates += 1
            state = "open" if duplicates <= 4 else "closed"
        else:
            state = "open" if rng.random() < 0.6 else "closed"
        names = [] if kind == "pull" else [kind]
        if kind == "pull" and "Bump" in title:
            names = ["dependencies"]
        if kind != "pull" and rng.random() < 0.4:
            names.append(rng.choice(("good first issue", "help wanted", "a11y")))
        body = " ".join(rng.sample(content["sentences"], rng.randrange(3, 7)))
        author = people[rng.choice(logins)]
        world.issues[number] = issue(widgets, number, title, body, author, state, names)
        world.issues[number] |= {"created_at": stamp(created), "updated_at": stamp(updated)}
        if state == "closed":
            world.issues[number] |= {"closed_at": stamp(updated), "state_reason": "completed"}
        count = rng.randrange(5)
        if kind == "pull" and state == "open" and oldest_open_pull:
            count, oldest_open_pull = 24, False  # a long review thread on the oldest open one
        world.comments[number] = [
            comment(widgets, number, 1_000_000 * number + i, people[rng.choice(logins)],
                    " ".join(rng.sample(content["comment_sentences"], rng.randrange(1, 4))),
                    created + timedelta(hours=3 * i + 1), rng)
            for i in range(count)
        ]  # fmt: skip
        world.issues[number]["comments"] = count
        if kind == "pull":
            world.issues[number]["pull_request"] = {
                "url": f"{widgets['url']}/pulls/{number}",
                "html_url": f"{widgets['html_url']}/pull/{number}",
                "diff_url": f"{widgets['html_url']}/pull/{number}.diff",
                "patch_url": f"{widgets['html_url']}/pull/{number}.patch",
                "merged_at": None if state == "open" else world.issues[number]["closed_at"],
            }
            world.pulls[number] = pull(widgets, world.issues[number], rng)
    return world


def issue(
    repo: dict[str, Any],
    number: int,
    title: str,
    body: str,
    author: dict[str, Any],
    state: str,
    labels: list[str],
) -> dict[str, Any]:
    url = f"{repo['url']}/issues/{number}"
    rng = random.Random(number)
    return {
        "url": url, "repository_url": repo["url"], "labels_url": f"{url}/labels{{/name}}",
        "comments_url": f"{url}/comments", "events_url": f"{url}/events",
        "html_url": f"{repo['html_url']}/issues/{number}", "id": 2_100_000_000 + number,
        "node_id": node_id("Issue", 2_100_000_000 + number), "number": number, "title": title,
        "user": author, "labels": [label(repo["url"], name) for name in labels],
        "state": state, "locked": False, "assignee": None, "assignees": [], "milestone": None,
        "comments": 0, "created_at": None, "updated_at": None, "closed_at": None,
        "author_association": "CONTRIBUTOR", "type": None, "active_lock_reason": None,
        "sub_issues_summary": {"total": 0, "completed": 0, "percent_completed": 0},
        "body": body, "closed_by": None, "reactions": reactions(url, rng),
        "timeline_url": f"{url}/timeline", "performed_via_github_app": None,
        "state_reason": None,
    }  # fmt: skip


def comment(
    repo: dict[str, Any],
    number: int,
    ident: int,
    author: dict[str, Any],
    body: str,
    created: datetime,
    rng: random.Random,
) -> dict[str, Any]:
    url = f"{repo['url']}/issues/comments/{ident}"
    return {
        "url": url, "html_url": f"{repo['html_url']}/issues/{number}#issuecomment-{ident}",
        "issue_url": f"{repo['url']}/issues/{number}", "id": ident,
        "node_id": node_id("IssueComment", ident), "user": author,
        "created_at": stamp(created), "updated_at": stamp(created), "body": body,
        "author_association": "MEMBER", "reactions": reactions(url, rng),
        "performed_via_github_app": None,
    }  # fmt: skip


def pull(repo: dict[str, Any], item: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    number = item["number"]
    url = f"{repo['url']}/pulls/{number}"
    sha = f"{rng.getrandbits(160):040x}"

    def ref(name: str, sha: str) -> dict[str, Any]:
        return {"label": f"{repo['owner']['login']}:{name}", "ref": name, "sha": sha,
                "user": repo["owner"], "repo": repo}  # fmt: skip

    links = {"self": url, "html": item["html_url"], "issue": item["url"],
             "comments": item["comments_url"], "review_comments": f"{url}/comments",
             "review_comment": f"{repo['url']}/pulls/comments{{/number}}",
             "commits": f"{url}/commits", "statuses": f"{repo['url']}/statuses/{sha}"}  # fmt: skip
    return {
        "url": url, "id": 1_900_000_000 + number,
        "node_id": node_id("PullRequest", 1_900_000_000 + number),
        "html_url": f"{repo['html_url']}/pull/{number}",
        "diff_url": f"{repo['html_url']}/pull/{number}.diff",
        "patch_url": f"{repo['html_url']}/pull/{number}.patch", "issue_url": item["url"],
        "commits_url": f"{url}/commits", "review_comments_url": f"{url}/comments",
        "review_comment_url": f"{repo['url']}/pulls/comments{{/number}}",
        "comments_url": item["comments_url"], "statuses_url": links["statuses"],
        "number": number, "state": item["state"], "locked": False, "title": item["title"],
        "user": item["user"], "body": item["body"], "labels": item["labels"], "milestone": None,
        "active_lock_reason": None, "created_at": item["created_at"],
        "updated_at": item["updated_at"], "closed_at": item["closed_at"],
        "merged_at": item["closed_at"], "merge_commit_sha": f"{rng.getrandbits(160):040x}",
        "assignee": None, "assignees": [], "requested_reviewers": [], "requested_teams": [],
        "head": ref(f"feature-{number}", sha), "base": ref("main", f"{rng.getrandbits(160):040x}"),
        "_links": {key: {"href": href} for key, href in links.items()},
        "author_association": "MEMBER", "auto_merge": None, "draft": False,
    }  # fmt: skip


# -- the fake GitHub on 127.0.0.1 --------------------------------------------------------------

Reply = tuple[int, Any, dict[str, str]]
NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}


class FakeGitHub:
    """The handful of GitHub endpoints the tasks use, with GitHub's filters, sorting and paging."""

    def __init__(self, content: dict[str, Any]) -> None:
        self.content = content
        self.world = build_world(content)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.fake = self  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def reset(self) -> None:
        self.world = build_world(self.content)

    @contextmanager
    def running(self) -> Iterator[FakeGitHub]:
        threading.Thread(target=self._server.serve_forever, args=(0.01,), daemon=True).start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()

    def answer(self, method: str, target: str, body: bytes) -> Reply:
        parts = urlsplit(target)
        query = dict(parse_qsl(parts.query))
        world, path = self.world, parts.path.rstrip("/")
        repo = f"/repos/{world.owner}/{world.repo}"
        if (method, path) == ("GET", "/user"):
            return 200, world.me, {}
        if (method, path) == ("GET", "/user/repos"):
            return self._page(self._repositories(query), query, path)
        if (method, path) == ("GET", f"{repo}/issues"):
            return self._page(self._issues(query), query, path)
        if (method, path) == ("GET", f"{repo}/pulls"):
            return self._page(self._pulls(query), query, path)
        if method == "GET" and (found := re.fullmatch(rf"{repo}/issues/(\d+)/comments", path)):
            return self._page(world.comments.get(int(found[1]), []), query, path)
        if method == "PATCH" and (found := re.fullmatch(rf"{repo}/issues/(\d+)", path)):
            return self._update(int(found[1]), json.loads(body or b"{}"))
        return 404, NOT_FOUND, {}

    def _repositories(self, query: dict[str, str]) -> list[dict[str, Any]]:
        login = self.world.me["login"]
        affiliation = query.get("affiliation", "owner,collaborator,organization_member")
        if query.get("type") in ("owner", "member"):
            affiliation = "owner" if query["type"] == "owner" else "organization_member"
        kinds = set(affiliation.split(","))
        found = [
            r
            for r in self.world.repositories
            if ("owner" in kinds if r["owner"]["login"] == login else len(kinds - {"owner"}) > 0)
        ]
        key = query.get("sort", "full_name")
        ascending = query.get("direction", "asc" if key == "full_name" else "desc") == "asc"
        field_name = {"created": "created_at", "updated": "updated_at", "pushed": "pushed_at"}
        found.sort(key=lambda r: r[field_name.get(key, "full_name")].lower())
        return found if ascending else found[::-1]

    def _issues(self, query: dict[str, str]) -> list[dict[str, Any]]:
        state = query.get("state", "open")
        wanted = {name.strip() for name in query.get("labels", "").split(",") if name.strip()}
        found = [
            i
            for i in self.world.issues.values()
            if state in ("all", i["state"]) and wanted <= {x["name"] for x in i["labels"]}
        ]
        return _sorted(found, query, {"created": "created_at", "updated": "updated_at"})

    def _pulls(self, query: dict[str, str]) -> list[dict[str, Any]]:
        state = query.get("state", "open")
        found = [p for p in self.world.pulls.values() if state in ("all", p["state"])]
        return _sorted(found, query, {"created": "created_at", "updated": "updated_at"})

    def _update(self, number: int, changes: dict[str, Any]) -> Reply:
        item = self.world.issues.get(number)
        if item is None:
            return 404, NOT_FOUND, {}
        now = stamp(datetime(2025, 6, 2, 12, 0, tzinfo=UTC))
        for key in ("title", "body", "state", "state_reason"):
            if key in changes:
                item[key] = changes[key]
        if changes.get("state") == "closed":
            item["closed_at"], item["closed_by"] = now, self.world.me
            item["state_reason"] = changes.get("state_reason") or "completed"
        item["updated_at"] = now
        return 200, item, {}

    def _page(self, items: list[Any], query: dict[str, str], path: str) -> Reply:
        size = max(1, min(int(query.get("per_page", "30")), 100))
        page = max(1, int(query.get("page", "1")))
        last = max(1, -(-len(items) // size))
        headers = {}
        if page < last:
            base = f"{API}{path}?per_page={size}&page="
            headers["Link"] = f'<{base}{page + 1}>; rel="next", <{base}{last}>; rel="last"'
        return 200, items[(page - 1) * size : page * size], headers


def _sorted(
    items: list[dict[str, Any]], query: dict[str, str], fields: dict[str, str]
) -> list[dict[str, Any]]:
    key = fields.get(query.get("sort", "created"), "created_at")
    items = sorted(items, key=lambda item: str(item[key]))
    return items[::-1] if query.get("direction", "desc") == "desc" else items


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        # without it keep-alive calls wait for delayed ACKs (~45 ms each)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        fake: FakeGitHub = self.server.fake  # type: ignore[attr-defined]
        status, payload, headers = fake.answer(self.command, self.path, body)
        data = json.dumps(payload, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _handle


# -- the spec and the generated server ---------------------------------------------------------


def github_spec() -> Path:
    """GitHub's description from the npm package ``realworld.py`` pins, in its cache."""
    import realworld  # noqa: PLC0415 - the sibling script; its pin and cache are the ones to share

    spec = realworld.CACHE / dict(realworld.SPECS)["github"]
    if not spec.exists():
        npm = shutil.which("npm")
        if npm is None:
            sys.exit("npm is needed to fetch @octokit/openapi (or use --spec synthetic)")
        pinned = next(p for p in realworld.PACKAGES if p.startswith("@octokit/openapi@"))
        realworld.CACHE.mkdir(parents=True, exist_ok=True)
        manifest = realworld.CACHE / "package.json"
        if not manifest.exists():
            manifest.write_text('{"name": "realworld-specs", "private": true}\n')
        subprocess.run(
            [npm, "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", pinned],
            cwd=realworld.CACHE,
            check=True,
        )
    return spec


def synthetic_spec() -> dict[str, Any]:
    """The tests' GitHub-like document, its task operations given GitHub's parameters and shapes
    (filters, sorting, closing an issue, label objects) so that the same scripts serve both."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    spec: dict[str, Any] = copy.deepcopy(importlib.import_module("tests.bigapi.github_like").spec())

    def query(name: str, description: str, *values: str) -> dict[str, Any]:
        schema = {"type": "string", "enum": list(values)} if values else {"type": "string"}
        return {"name": name, "in": "query", "description": description, "schema": schema}

    state = query("state", "Indicates the state to return.", "open", "closed", "all")
    direction = query("direction", "The direction to sort the results by.", "asc", "desc")
    paths = spec["paths"]
    paths["/repos/{owner}/{repo}/issues"]["get"]["parameters"] += [
        state,
        query("labels", "A list of comma separated label names. Example: `bug,ui,@high`"),
        query("sort", "What to sort results by.", "created", "updated", "comments"),
        direction,
    ]
    paths["/repos/{owner}/{repo}/pulls"]["get"]["parameters"] += [
        state,
        query("sort", "What to sort results by.", "created", "updated", "popularity"),
        direction,
    ]
    paths["/user/repos"]["get"]["parameters"] += [
        query("visibility", "Limit results to repositories with this visibility.", "all", "public"),
        query("affiliation", "Comma-separated list of owner, collaborator, organization_member."),
        query("type", "Limit results to repositories of this type.", "all", "owner", "member"),
        query("sort", "The property to sort the results by.", "created", "updated", "full_name"),
        direction,
    ]
    update = paths["/repos/{owner}/{repo}/issues/{issue_number}"]["patch"]["requestBody"]
    update["content"]["application/json"]["schema"] = {
        "type": "object",
        "properties": {
            "title": {"type": "string", "description": "The title of the issue."},
            "body": {"type": "string", "description": "The contents of the issue."},
            "state": {"type": "string", "enum": ["open", "closed"]},
            "state_reason": {"type": "string", "enum": ["completed", "not_planned", "duplicate"]},
        },
    }
    spec["components"]["schemas"]["issue"]["properties"]["labels"] = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
        },
    }
    return spec


@dataclass(frozen=True)
class Package:
    root: Path
    module: str
    prefix: str
    select_argument: str
    tools: int


def generate(spec: Path, out: Path) -> Package:
    subprocess.run(
        [sys.executable, "-m", "openapi2mcp", "generate", str(spec), "-o", str(out), "--force",
         "--no-progress"],
        check=True,
        capture_output=True,
    )  # fmt: skip
    module = next(p.name for p in (out / "src").iterdir() if (p / "catalog.index.json").exists())
    index = json.loads((out / "src" / module / "catalog.index.json").read_text(encoding="utf-8"))
    prefix = index["upstream"]["baseUrlEnv"].removesuffix("_BASE_URL")
    return Package(out, module, prefix, index.get("selectArgument", ""), index["counts"]["tools"])


# -- counting ----------------------------------------------------------------------------------

# reads a JSON list of texts, prints their o200k_base token counts; the tokenizer refuses very long
# inputs, so a long text is cut after a comma or newline near every 50,000 characters
TOKENIZER = """
import json, sys, bpe_openai
enc = bpe_openai.get_encoding("o200k_base")
def pieces(text, size=50_000):
    start = 0
    while len(text) - start > size:
        cut = max(text.rfind(",", start, start + size), text.rfind("\\n", start, start + size))
        cut = start + size if cut <= start else cut + 1
        yield text[start:cut]
        start = cut
    yield text[start:]
texts = json.load(sys.stdin)
print(json.dumps([sum(len(enc.encode_ordinary(p)) for p in pieces(t)) for t in texts]))
"""


def tokenizer_python() -> str:
    if importlib.util.find_spec("bpe_openai") is not None:
        return sys.executable
    for candidate in (
        HERE / ".cache" / "fastmcp-venv" / "bin" / "python",
        TOKENS_VENV / "bin" / "python",
    ):
        probe = [str(candidate), "-c", "import bpe_openai"]
        if (
            candidate.exists()
            and subprocess.run(probe, check=False, capture_output=True).returncode == 0
        ):
            return str(candidate)
    venv.EnvBuilder(with_pip=True).create(TOKENS_VENV)
    python = TOKENS_VENV / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "bpe-openai"],
        check=True,
    )
    return str(python)


def count_tokens(texts: Sequence[str]) -> dict[str, int]:
    unique = list(dict.fromkeys(texts))
    done = subprocess.run(
        [tokenizer_python(), "-c", TOKENIZER],
        input=json.dumps(unique).encode(),
        capture_output=True,
        check=True,
    )
    return dict(zip(unique, json.loads(done.stdout), strict=True))


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass
class Transcript:
    """What one conversation (one task in one mode) put before the model, piece by piece."""

    requests: int = 0
    listing: list[str] = field(default_factory=list)  # the server's instructions, each tool
    written: list[str] = field(default_factory=list)  # each tool call the model wrote
    read: list[str] = field(default_factory=list)  # each tool result it read
    log: list[tuple[str, str, list[str]]] = field(default_factory=list)  # (tool, call, result)
    answer: Any = None
    problem: str = ""  # why the answer is wrong, or why the run broke off

    def tokens(self, counts: dict[str, int]) -> tuple[int, int, int]:
        """Tokens of the listing, of what the model wrote, of what it read."""
        listed, written, read = (
            sum(counts[text] for text in part) for part in (self.listing, self.written, self.read)
        )
        return listed, written, read


# -- the scripted agent ------------------------------------------------------------------------


class AgentError(Exception):
    """A step failed: the cell is reported as FAIL with this message."""


# what the agent asks search_operations for each operation, in order, until the operation is a hit
QUERIES = {
    "issues_list_for_repo": ("list issues in a repository",),
    "repos_list_for_authenticated_user": (
        "list my repositories",
        "list repositories for the authenticated user",
    ),
    "pulls_list": ("list pull requests",),
    "issues_list_comments": ("list comments on an issue", "list issue comments"),
    "issues_update": ("close an issue", "update an issue"),
}


def texts_of(result: Any) -> list[str]:
    return [block.text for block in result.content if getattr(block, "type", "") == "text"]


def read_value(result: Any) -> Any:
    """The JSON value a result carries, as a model reads it from the text (the structured content
    when no text block is JSON; else the last text block as it is)."""
    texts = texts_of(result)
    for text in texts:
        try:
            return json.loads(text)
        except ValueError:
            continue
    for text in texts:
        try:
            return ast.literal_eval(text.strip())
        except (ValueError, SyntaxError):
            continue
    structured = result.structured_content
    if isinstance(structured, dict) and set(structured) == {"result"}:
        return structured["result"]
    if structured is not None:
        return structured
    if texts:
        return texts[-1].strip()
    raise AgentError("the result carries no value")


class Agent:
    """Makes the requests a capable model would make in ``mode``, and records what they cost."""

    def __init__(self, client: Client, mode: str, select: str, transcript: Transcript) -> None:
        self.client = client
        self.mode = mode
        self.select_argument = select
        self.transcript = transcript
        self.known: set[str] = set()

    async def tool(self, name: str, arguments: dict[str, Any]) -> Any:
        call = compact({"name": name, "arguments": arguments})
        self.transcript.written.append(call)
        self.transcript.requests += 1
        result = await self.client.call_tool(name, arguments)
        texts = texts_of(result)
        if result.structured_content is not None:
            texts.append(compact(result.structured_content))
        self.transcript.read.extend(texts)
        self.transcript.log.append((name, call, texts))
        if result.is_error:
            raise AgentError(f"{name} failed: {' '.join(texts_of(result))[:300]}")
        return result

    async def discover(self, operation: str) -> None:
        """Search until ``operation`` is among the hits, then describe it (not in full mode:
        tools/list showed it already)."""
        if self.mode == "full" or operation in self.known:
            return
        for query in QUERIES[operation]:
            found = await self.tool("search_operations", {"query": query})
            if re.search(rf"^- {re.escape(operation)}:", "\n".join(texts_of(found)), re.M):
                break
        else:
            raise AgentError(f"search_operations never offered {operation}")
        await self.tool("describe_operation", {"name": operation})
        self.known.add(operation)

    async def run(self, operation: str, arguments: dict[str, Any], select: str | None) -> Any:
        """Call ``operation``; ``select`` says what the model needs from the response (a JMESPath
        expression: sent to the server with projection, applied by the model's reading otherwise)."""
        await self.discover(operation)
        if self.mode == "full":
            result = await self.tool(operation, arguments)
        else:
            call: dict[str, Any] = {"name": operation, "arguments": arguments}
            projected = self.mode == "dynamic + _select" and select is not None
            if projected:
                call[self.select_argument] = select
            result = await self.tool("call_operation", call)
            if projected:
                return read_value(result)
        return read_value(result) if select is None else jmespath.search(select, read_value(result))

    async def run_code(self, operations: Sequence[str], program: str) -> Any:
        for operation in operations:
            await self.discover(operation)
        return read_value(await self.tool("run_code", {"code": program}))


# -- the tasks ---------------------------------------------------------------------------------

CONTENT: dict[str, Any] = json.loads(WORLD.read_text(encoding="utf-8"))
OWNER, NAME = CONTENT["org"], CONTENT["repo"]
WHERE = {"owner": OWNER, "repo": NAME}


@dataclass(frozen=True)
class Task:
    key: str
    question: str
    script: Callable[[Agent], Awaitable[Any]]  # full and dynamic modes
    operations: tuple[str, ...]  # what code mode looks up before it writes its program
    program: str  # code mode's run_code
    expected: Callable[[World], Any]
    # side effects: "" when the fake's state after the run (second) is right, else what is wrong
    effect: Callable[[World, World], str] = lambda before, after: ""
    normalise: Callable[[Any], Any] = lambda answer: answer


def open_issues(world: World, name: str) -> list[dict[str, Any]]:
    return [
        i
        for i in world.issues.values()
        if i["state"] == "open"
        and "pull_request" not in i
        and name in {x["name"] for x in i["labels"]}
    ]


async def bug_titles(agent: Agent) -> Any:
    arguments = {**WHERE, "state": "open", "labels": "bug", "sort": "updated",
                 "direction": "desc", "per_page": 3}  # fmt: skip
    return await agent.run("issues_list_for_repo", arguments, "[].title")


async def undescribed(agent: Agent) -> Any:
    arguments = {"affiliation": "owner", "per_page": 100}
    return await agent.run("repos_list_for_authenticated_user", arguments, "[?!description].name")


async def last_commenter(agent: Agent) -> Any:
    arguments = {**WHERE, "state": "open", "sort": "created", "direction": "asc", "per_page": 1}
    number = await agent.run("pulls_list", arguments, "[0].number")
    arguments = {**WHERE, "issue_number": number, "per_page": 100}
    return await agent.run("issues_list_comments", arguments, "[-1].user.login")


async def close_duplicates(agent: Agent) -> Any:
    arguments = {**WHERE, "state": "open", "labels": "duplicate", "per_page": 100}
    numbers = await agent.run("issues_list_for_repo", arguments, "[].number")
    for number in numbers:
        closing = {**WHERE, "issue_number": number, "state": "closed", "state_reason": "duplicate"}
        await agent.run("issues_update", closing, None)
    return len(numbers)


def duplicates_closed(before: World, after: World) -> str:
    wanted = {i["number"] for i in open_issues(before, "duplicate")}
    closed = {n for n, i in after.issues.items() if i["state"] != before.issues[n]["state"]}
    if closed != wanted:
        return f"closed {sorted(closed)}, expected {sorted(wanted)}"
    if any(after.issues[n].get("state_reason") != "duplicate" for n in closed):
        return "closed without state_reason duplicate"
    return ""


def oldest_open_pull_last_commenter(world: World) -> str:
    oldest = min((p for p in world.pulls.values() if p["state"] == "open"),
                 key=lambda p: p["created_at"])  # fmt: skip
    login: str = world.comments[oldest["number"]][-1]["user"]["login"]
    return login


TASKS = (
    Task(
        "bug-titles",
        f"titles of the three most recently updated open issues labelled bug in {OWNER}/{NAME}",
        bug_titles,
        ("issues_list_for_repo",),
        f"""\
issues = await issues_list_for_repo(
    owner="{OWNER}", repo="{NAME}", state="open", labels="bug",
    sort="updated", direction="desc", per_page=3,
)
[issue["title"] for issue in issues]
""",
        lambda world: [
            i["title"]
            for i in sorted(open_issues(world, "bug"), key=lambda i: i["updated_at"], reverse=True)
        ][:3],
    ),
    Task(
        "no-description",
        "which of my repositories have no description",
        undescribed,
        ("repos_list_for_authenticated_user",),
        """\
repos = await repos_list_for_authenticated_user(affiliation="owner", per_page=100)
[repo["name"] for repo in repos if not repo["description"]]
""",
        lambda world: sorted(
            r["name"]
            for r in world.repositories
            if r["owner"]["login"] == world.me["login"] and not r["description"]
        ),
        normalise=lambda answer: sorted(answer) if isinstance(answer, list) else answer,
    ),
    Task(
        "last-commenter",
        f"who last commented on the oldest open pull request in {OWNER}/{NAME}",
        last_commenter,
        ("pulls_list", "issues_list_comments"),
        f"""\
pulls = await pulls_list(
    owner="{OWNER}", repo="{NAME}", state="open", sort="created", direction="asc", per_page=1,
)
comments = await issues_list_comments(
    owner="{OWNER}", repo="{NAME}", issue_number=pulls[0]["number"], per_page=100,
)
comments[-1]["user"]["login"]
""",
        oldest_open_pull_last_commenter,
    ),
    Task(
        "close-duplicates",
        f"close every open issue labelled duplicate in {OWNER}/{NAME} and say how many",
        close_duplicates,
        ("issues_list_for_repo", "issues_update"),
        f"""\
issues = await issues_list_for_repo(
    owner="{OWNER}", repo="{NAME}", state="open", labels="duplicate", per_page=100,
)
for issue in issues:
    await issues_update(
        owner="{OWNER}", repo="{NAME}", issue_number=issue["number"],
        state="closed", state_reason="duplicate",
    )
len(issues)
""",
        lambda world: len(open_issues(world, "duplicate")),
        duplicates_closed,
    ),
)


# -- running the modes -------------------------------------------------------------------------


async def listing(client: Client) -> tuple[list[str], list[str], int]:
    """The instructions and every tool as a client renders them for the model; names; pages."""
    pieces = [client.instructions] if client.instructions else []
    names: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = await client.list_tools(cursor=cursor)
        pages += 1
        for tool in page.tools:
            raw = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
            shown = ("name", "description", "inputSchema", "outputSchema")
            pieces.append(compact({key: raw[key] for key in shown if key in raw}))
            names.append(tool.name)
        cursor = page.next_cursor
        if not cursor:
            return pieces, names, pages


async def run_mode(
    package: Package, fake: FakeGitHub, mode: str, tasks: Sequence[Task]
) -> dict[str, Transcript] | str:
    """Each task as one conversation with a server in ``mode``; a reason instead when code mode
    is not available."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", package.module],
        env={
            "PYTHONPATH": str(package.root / "src"),
            "PATH": "/usr/bin:/bin",
            f"{package.prefix}_BASE_URL": fake.url,
            f"{package.prefix}_TOOL_MODE": SERVER_MODE[mode],
        },
    )
    with tempfile.TemporaryFile("w+") as errlog:
        return await _conversations(package, fake, mode, tasks, params, errlog)


async def _conversations(
    package: Package,
    fake: FakeGitHub,
    mode: str,
    tasks: Sequence[Task],
    params: StdioServerParameters,
    errlog: TextIO,
) -> dict[str, Transcript] | str:
    transcripts: dict[str, Transcript] = {}
    if mode == "dynamic + _select" and not package.select_argument:
        return "the server has no projection argument"
    try:
        async with Client(stdio_client(params, errlog=errlog), mode="auto") as client:
            shown, names, pages = await listing(client)
            if mode == "code" and "run_code" not in names:
                return f"the server lists {', '.join(names[:3])}{'…' if len(names) > 3 else ''}"
            for task in tasks:
                fake.reset()
                before = build_world(CONTENT)
                transcript = Transcript(requests=pages, listing=shown)
                agent = Agent(client, mode, package.select_argument, transcript)
                try:
                    if mode == "code":
                        answer = await agent.run_code(task.operations, task.program)
                    else:
                        answer = await task.script(agent)
                except AgentError as error:
                    transcript.problem = str(error)
                else:
                    transcript.answer = task.normalise(answer)
                    expected = task.normalise(task.expected(before))
                    if transcript.answer != expected:
                        transcript.problem = f"answered {answer!r}, expected {expected!r}"
                    else:
                        transcript.problem = task.effect(before, fake.world)
                transcripts[task.key] = transcript
    except Exception as error:
        if mode != "code":  # only code mode may be missing; a failure of any other is a bug
            raise
        errlog.seek(0)
        said = [line for line in errlog.read().splitlines() if line.strip()]
        return said[-1][:160] if said else f"the server refused the mode ({error!r:.120})"
    return transcripts


# -- the report --------------------------------------------------------------------------------


def report(
    tasks: Sequence[Task],
    results: dict[str, dict[str, Transcript] | str],
    counts: dict[str, int],
    verbose: bool,
) -> None:
    ratios: list[float] = []
    failures = 0
    for number, task in enumerate(tasks, start=1):
        print(f"\n[{number}] {task.key}: {task.question}")
        header = ("mode", "requests", "listing", "written", "read", "total", "÷ full", "answer")
        print("    {:<18}{:>9}{:>12}{:>9}{:>10}{:>11}{:>8}  {}".format(*header))
        totals: dict[str, int] = {}
        for mode in MODES:
            outcome = results[mode]
            if isinstance(outcome, str):
                print(f"    {mode:<18}{'n/a':>9}  ({outcome})")
                continue
            transcript = outcome[task.key]
            listed, written, read = transcript.tokens(counts)
            total = totals[mode] = listed + written + read
            full = totals.get("full")
            share = f"{total / full:.3f}" if full else "-"
            problem = " ".join(transcript.problem.split())
            verdict = f"FAIL: {problem[:160]}" if problem else "ok"
            failures += bool(transcript.problem)
            print(
                f"    {mode:<18}{transcript.requests:>9}{listed:>12,}{written:>9,}{read:>10,}"
                f"{total:>11,}{share:>8}  {verdict}"
            )
            if verbose:
                for name, call, result in transcript.log:
                    read = sum(counts[text] for text in result)
                    print(f"        {name}: {counts[call]:,} written, {read:,} read")
        if "code" in totals and "full" in totals:
            ratio = totals["code"] / totals["full"]
            ratios.append(ratio)
            met = "met" if ratio <= TARGET else "MISSED"
            print(f"    code/full = {ratio:.4f} (target ≤ {TARGET}: {met})")
        else:
            print("    code/full = n/a")
    print()
    if isinstance(results["code"], str):
        print(f"summary: code mode n/a ({results['code']}); {failures} failed cell(s)")
    elif len(ratios) == len(tasks):
        every = "yes" if all(r <= TARGET for r in ratios) else "NO"
        print(
            f"summary: code/full per task {', '.join(f'{r:.4f}' for r in ratios)}; "
            f"≤ {TARGET} on every task: {every}; {failures} failed cell(s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--spec", choices=("github", "synthetic"), default="github")
    parser.add_argument(
        "--only", help="comma-separated task keys: " + ", ".join(t.key for t in TASKS)
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="each request of each run")
    args = parser.parse_args()
    wanted = [key.strip() for key in (args.only or "").split(",") if key.strip()]
    unknown = sorted(set(wanted) - {t.key for t in TASKS})
    if unknown:
        parser.error(f"no task {', '.join(unknown)}; choose from {', '.join(t.key for t in TASKS)}")
    tasks = [t for t in TASKS if not wanted or t.key in wanted]
    with tempfile.TemporaryDirectory() as tmp:
        if args.spec == "github":
            spec = github_spec()
        else:
            spec = Path(tmp) / "github-like.json"
            spec.write_text(json.dumps(synthetic_spec()), encoding="utf-8")
        start = time.perf_counter()
        package = generate(spec, Path(tmp) / "server")
        seconds = time.perf_counter() - start
        print(
            f"spec: {args.spec} ({spec.name}), {package.tools:,} tools, generated in {seconds:.0f} s;"
            f" tokens: o200k_base; projection argument: {package.select_argument or '(none)'}"
        )
        fake = FakeGitHub(CONTENT)
        with fake.running():
            results = {mode: asyncio.run(run_mode(package, fake, mode, tasks)) for mode in MODES}
    texts = [
        text
        for outcome in results.values()
        if not isinstance(outcome, str)
        for transcript in outcome.values()
        for part in (transcript.listing, transcript.written, transcript.read)
        for text in part
    ]
    counts = count_tokens(texts)
    report(tasks, results, counts, args.verbose)


if __name__ == "__main__":
    main()
