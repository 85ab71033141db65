"""The kit's recording upstream as a stand-in for the GitHub-like API: it keeps every request it gets.

Answers are canned per route (an issue for the issue routes, a repository for ``GET /repos/o/r``, a
204 for starring); anything else is a 404 with GitHub's ``{"message": "Not Found"}``.
"""

from __future__ import annotations

import json

from tests.kit.upstream import RecordingUpstream, Reply, Request


def _answer(method: str, path: str, body: bytes) -> Reply:
    parts = path.strip("/").split("/")
    if method == "POST" and len(parts) == 4 and parts[0] == "repos" and parts[3] == "issues":
        sent = json.loads(body or b"{}")
        return Reply.json(
            201, {"id": 7, "number": 42, "title": sent.get("title", ""), "state": "open"}
        )
    if method == "GET" and len(parts) == 5 and parts[3] == "issues":
        return Reply.json(
            200, {"id": 7, "number": int(parts[4]), "title": "Found a bug", "state": "open"}
        )
    if method == "GET" and len(parts) == 3 and parts[0] == "repos":
        return Reply.json(200, {"id": 1, "name": parts[2], "full_name": f"{parts[1]}/{parts[2]}"})
    if method == "PUT" and parts[:2] == ["user", "starred"]:
        return Reply.json(204)
    return Reply.json(404, {"message": "Not Found"})


class GitHubLike(RecordingUpstream):
    """``with GitHubLike() as api:`` serves on ``api.url`` and records ``api.requests``."""

    def answer(self, request: Request) -> Reply:
        return _answer(request.method, request.path, request.body)
