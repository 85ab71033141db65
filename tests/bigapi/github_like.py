"""A synthetic OpenAPI document that imitates GitHub's REST description (names, tags, shapes).

Big enough for what the tool modes are about (more than 100 operations: ``auto`` picks dynamic mode
and full mode needs two pages of tools), small enough to generate in a second. Operation ids follow
GitHub's ``tag/verb-noun`` style (``issues/create``, ``pulls/merge``,
``activity/star-repo-for-authenticated-user``) and summaries are written like GitHub's, so that the
search tool is tried on the kind of text it meets in practice. Not GitHub's document: written here.
"""

from __future__ import annotations

import re
from typing import Any

Operation = tuple[str, str, str, str, str, dict[str, Any] | None, str | None]

USER = {
    "type": "object",
    "properties": {"login": {"type": "string"}, "id": {"type": "integer"}},
    "required": ["login", "id"],
}
REPOSITORY = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "full_name": {"type": "string"},
        "private": {"type": "boolean"},
        "owner": {"$ref": "#/components/schemas/simple-user"},
        "description": {"type": "string", "nullable": True},
    },
    "required": ["id", "name", "full_name"],
}
ISSUE = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "number": {"type": "integer"},
        "title": {"type": "string", "description": "The title of the issue."},
        "state": {"type": "string", "enum": ["open", "closed"]},
        "labels": {"type": "array", "items": {"type": "string"}},
        "user": {"$ref": "#/components/schemas/simple-user"},
    },
    "required": ["id", "number", "title", "state"],
}
PULL = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "number": {"type": "integer"},
        "title": {"type": "string"},
        "state": {"type": "string"},
        "merged": {"type": "boolean"},
    },
    "required": ["id", "number", "title"],
}
THING = {
    "type": "object",
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
    "required": ["id"],
}

ISSUE_BODY = {
    "type": "object",
    "properties": {
        "title": {
            "type": "string",
            "description": "The title of the issue.",
            "examples": ["Found a bug"],
        },
        "body": {"type": "string", "description": "The contents of the issue."},
        "labels": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Labels to associate with this issue.",
        },
        "assignees": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["title"],
}
PULL_BODY = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "head": {"type": "string", "description": "The name of the branch with your changes."},
        "base": {"type": "string", "description": "The branch you want the changes pulled into."},
        "draft": {"type": "boolean"},
    },
    "required": ["head", "base"],
}
NAMED_BODY = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
    "required": ["name"],
}

R = "/repos/{owner}/{repo}"
# (operationId, method, path, summary, tag, request body, response schema: "x" or "x[]" or None)
CORE: list[Operation] = [
    ("repos/get", "get", R, "Get a repository", "repos", None, "repository"),
    ("repos/update", "patch", R, "Update a repository", "repos", NAMED_BODY, "repository"),
    ("repos/delete", "delete", R, "Delete a repository", "repos", None, None),
    ("repos/list-for-org", "get", "/orgs/{org}/repos", "List organization repositories",
     "repos", None, "repository[]"),
    ("repos/create-in-org", "post", "/orgs/{org}/repos", "Create an organization repository",
     "repos", NAMED_BODY, "repository"),
    ("repos/list-for-authenticated-user", "get", "/user/repos",
     "List repositories for the authenticated user", "repos", None, "repository[]"),
    ("repos/create-for-authenticated-user", "post", "/user/repos",
     "Create a repository for the authenticated user", "repos", NAMED_BODY, "repository"),
    ("repos/list-branches", "get", R + "/branches", "List branches", "repos", None, "thing[]"),
    ("repos/get-branch", "get", R + "/branches/{branch}", "Get a branch", "repos", None, "thing"),
    ("repos/rename-branch", "post", R + "/branches/{branch}/rename", "Rename a branch", "repos",
     NAMED_BODY, "thing"),
    ("repos/list-commits", "get", R + "/commits", "List commits", "repos", None, "thing[]"),
    ("repos/get-commit", "get", R + "/commits/{ref}", "Get a commit", "repos", None, "thing"),
    ("repos/get-content", "get", R + "/contents/{path}", "Get repository content", "repos",
     None, "thing"),
    ("repos/create-or-update-file-contents", "put", R + "/contents/{path}",
     "Create or update file contents", "repos", NAMED_BODY, "thing"),
    ("repos/delete-file", "delete", R + "/contents/{path}", "Delete a file", "repos", None, None),
    ("repos/list-contributors", "get", R + "/contributors", "List repository contributors",
     "repos", None, "simple-user[]"),
    ("repos/create-fork", "post", R + "/forks", "Create a fork", "repos", None, "repository"),
    ("repos/list-forks", "get", R + "/forks", "List forks", "repos", None, "repository[]"),
    ("repos/list-collaborators", "get", R + "/collaborators", "List repository collaborators",
     "repos", None, "simple-user[]"),
    ("repos/add-collaborator", "put", R + "/collaborators/{username}",
     "Add a repository collaborator", "repos", None, None),
    ("repos/remove-collaborator", "delete", R + "/collaborators/{username}",
     "Remove a repository collaborator", "repos", None, None),
    ("repos/get-readme", "get", R + "/readme", "Get a repository README", "repos", None, "thing"),
    ("repos/list-tags", "get", R + "/tags", "List repository tags", "repos", None, "thing[]"),
    ("issues/list", "get", "/issues", "List issues assigned to the authenticated user",
     "issues", None, "issue[]"),
    ("issues/list-for-repo", "get", R + "/issues", "List repository issues", "issues", None,
     "issue[]"),
    ("issues/create", "post", R + "/issues", "Create an issue", "issues", ISSUE_BODY, "issue"),
    ("issues/get", "get", R + "/issues/{issue_number}", "Get an issue", "issues", None, "issue"),
    ("issues/update", "patch", R + "/issues/{issue_number}", "Update an issue", "issues",
     ISSUE_BODY, "issue"),
    ("issues/lock", "put", R + "/issues/{issue_number}/lock", "Lock an issue", "issues", None,
     None),
    ("issues/unlock", "delete", R + "/issues/{issue_number}/lock", "Unlock an issue", "issues",
     None, None),
    ("issues/list-comments", "get", R + "/issues/{issue_number}/comments",
     "List issue comments", "issues", None, "thing[]"),
    ("issues/create-comment", "post", R + "/issues/{issue_number}/comments",
     "Create an issue comment", "issues", NAMED_BODY, "thing"),
    ("issues/list-labels-on-issue", "get", R + "/issues/{issue_number}/labels",
     "List labels for an issue", "issues", None, "thing[]"),
    ("issues/add-labels", "post", R + "/issues/{issue_number}/labels",
     "Add labels to an issue", "issues", NAMED_BODY, "thing[]"),
    ("issues/add-assignees", "post", R + "/issues/{issue_number}/assignees",
     "Add assignees to an issue", "issues", NAMED_BODY, "issue"),
    ("issues/list-events", "get", R + "/issues/{issue_number}/events", "List issue events",
     "issues", None, "thing[]"),
    ("pulls/list", "get", R + "/pulls", "List pull requests", "pulls", None, "pull[]"),
    ("pulls/create", "post", R + "/pulls", "Create a pull request", "pulls", PULL_BODY, "pull"),
    ("pulls/get", "get", R + "/pulls/{pull_number}", "Get a pull request", "pulls", None, "pull"),
    ("pulls/update", "patch", R + "/pulls/{pull_number}", "Update a pull request", "pulls",
     PULL_BODY, "pull"),
    ("pulls/list-commits", "get", R + "/pulls/{pull_number}/commits",
     "List commits on a pull request", "pulls", None, "thing[]"),
    ("pulls/list-files", "get", R + "/pulls/{pull_number}/files", "List pull requests files",
     "pulls", None, "thing[]"),
    ("pulls/check-if-merged", "get", R + "/pulls/{pull_number}/merge",
     "Check if a pull request has been merged", "pulls", None, None),
    ("pulls/merge", "put", R + "/pulls/{pull_number}/merge", "Merge a pull request", "pulls",
     NAMED_BODY, "thing"),
    ("pulls/list-reviews", "get", R + "/pulls/{pull_number}/reviews",
     "List reviews for a pull request", "pulls", None, "thing[]"),
    ("pulls/create-review", "post", R + "/pulls/{pull_number}/reviews",
     "Create a review for a pull request", "pulls", NAMED_BODY, "thing"),
    ("pulls/request-reviewers", "post", R + "/pulls/{pull_number}/requested_reviewers",
     "Request reviewers for a pull request", "pulls", NAMED_BODY, "pull"),
    ("actions/list-workflow-runs-for-repo", "get", R + "/actions/runs",
     "List workflow runs for a repository", "actions", None, "thing[]"),
    ("actions/get-workflow-run", "get", R + "/actions/runs/{run_id}", "Get a workflow run",
     "actions", None, "thing"),
    ("actions/cancel-workflow-run", "post", R + "/actions/runs/{run_id}/cancel",
     "Cancel a workflow run", "actions", None, None),
    ("actions/re-run-workflow", "post", R + "/actions/runs/{run_id}/rerun",
     "Re-run a workflow", "actions", None, None),
    ("actions/list-repo-workflows", "get", R + "/actions/workflows",
     "List repository workflows", "actions", None, "thing[]"),
    ("actions/list-jobs-for-workflow-run", "get", R + "/actions/runs/{run_id}/jobs",
     "List jobs for a workflow run", "actions", None, "thing[]"),
    ("actions/download-job-logs-for-workflow-run", "get", R + "/actions/jobs/{job_id}/logs",
     "Download job logs for a workflow run", "actions", None, None),
    ("users/get-authenticated", "get", "/user", "Get the authenticated user", "users", None,
     "simple-user"),
    ("users/get-by-username", "get", "/users/{username}", "Get a user", "users", None,
     "simple-user"),
    ("users/list-followers-for-authenticated-user", "get", "/user/followers",
     "List followers of the authenticated user", "users", None, "simple-user[]"),
    ("users/follow", "put", "/user/following/{username}", "Follow a user", "users", None, None),
    ("users/unfollow", "delete", "/user/following/{username}", "Unfollow a user", "users",
     None, None),
    ("activity/list-notifications-for-authenticated-user", "get", "/notifications",
     "List notifications for the authenticated user", "activity", None, "thing[]"),
    ("activity/mark-notifications-as-read", "put", "/notifications",
     "Mark notifications as read", "activity", None, None),
    ("activity/star-repo-for-authenticated-user", "put", "/user/starred/{owner}/{repo}",
     "Star a repository for the authenticated user", "activity", None, None),
    ("activity/unstar-repo-for-authenticated-user", "delete", "/user/starred/{owner}/{repo}",
     "Unstar a repository for the authenticated user", "activity", None, None),
    ("activity/list-stargazers-for-repo", "get", R + "/stargazers", "List stargazers",
     "activity", None, "simple-user[]"),
    ("gists/list", "get", "/gists", "List gists for the authenticated user", "gists", None,
     "thing[]"),
    ("gists/create", "post", "/gists", "Create a gist", "gists", NAMED_BODY, "thing"),
    ("gists/get", "get", "/gists/{gist_id}", "Get a gist", "gists", None, "thing"),
    ("gists/delete", "delete", "/gists/{gist_id}", "Delete a gist", "gists", None, None),
    ("gists/star", "put", "/gists/{gist_id}/star", "Star a gist", "gists", None, None),
    ("search/code", "get", "/search/code", "Search code", "search", None, "thing"),
    ("search/issues-and-pull-requests", "get", "/search/issues",
     "Search issues and pull requests", "search", None, "thing"),
    ("search/repos", "get", "/search/repositories", "Search repositories", "search", None,
     "thing"),
    ("search/users", "get", "/search/users", "Search users", "search", None, "thing"),
    ("git/create-ref", "post", R + "/git/refs", "Create a reference", "git", NAMED_BODY, "thing"),
    ("git/delete-ref", "delete", R + "/git/refs/{ref}", "Delete a reference", "git", None, None),
    ("git/get-tree", "get", R + "/git/trees/{tree_sha}", "Get a tree", "git", None, "thing"),
    ("git/create-commit", "post", R + "/git/commits", "Create a commit", "git", NAMED_BODY,
     "thing"),
]  # fmt: skip
# GitHub-style families: (tag, plural noun, path, singular noun)
FAMILIES = [
    ("issues", "labels", R + "/labels", "label"),
    ("issues", "milestones", R + "/milestones", "milestone"),
    ("repos", "releases", R + "/releases", "release"),
    ("repos", "webhooks", R + "/hooks", "webhook"),
    ("repos", "deployments", R + "/deployments", "deployment"),
    ("repos", "environments", R + "/environments", "environment"),
    ("actions", "repository secrets", R + "/actions/secrets", "repository secret"),
    ("actions", "repository variables", R + "/actions/variables", "repository variable"),
    ("orgs", "teams", "/orgs/{org}/teams", "team"),
    ("orgs", "organization webhooks", "/orgs/{org}/hooks", "organization webhook"),
]
TAGS = [
    ("repos", "Interact with GitHub Repos."),
    ("issues", "Interact with GitHub Issues."),
    ("pulls", "Interact with GitHub Pull Requests."),
    ("actions", "Endpoints to manage GitHub Actions using the REST API."),
    ("users", "Interact with and view information about users and also current user."),
    ("activity", "Activity APIs provide access to notifications, subscriptions, and timelines."),
    ("gists", "View, modify your gists."),
    ("search", "Look for stuff on GitHub."),
    ("git", "Raw Git functionality."),
    ("orgs", "Interact with GitHub Orgs."),
]


def _slug(words: str) -> str:
    return "-".join(words.split())


def family_operations() -> list[Operation]:
    operations: list[Operation] = []
    for tag, plural, path, singular in FAMILIES:
        key = "{" + _slug(singular).replace("-", "_") + "_id}"
        item = f"{path}/{key}"
        article = "an" if singular[0] in "aeiou" else "a"
        operations += [
            (f"{tag}/list-{_slug(plural)}", "get", path, f"List {plural}", tag, None, "thing[]"),
            (f"{tag}/create-{_slug(singular)}", "post", path,
             f"Create {article} {singular}", tag, NAMED_BODY, "thing"),
            (f"{tag}/get-{_slug(singular)}", "get", item, f"Get {article} {singular}", tag, None,
             "thing"),
            (f"{tag}/update-{_slug(singular)}", "patch", item, f"Update {article} {singular}",
             tag, NAMED_BODY, "thing"),
            (f"{tag}/delete-{_slug(singular)}", "delete", item, f"Delete {article} {singular}",
             tag, None, None),
        ]  # fmt: skip
    return operations


def operations() -> list[Operation]:
    return CORE + family_operations()


def _parameter(name: str) -> dict[str, Any]:
    integer = name.endswith(("_number", "_id")) and name not in ("gist_id",)
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "integer" if integer else "string"},
        "description": f"The {name.replace('_', ' ')}.",
    }


def _response(shape: str | None, method: str) -> dict[str, Any]:
    status = "201" if method == "post" and shape else "200" if shape else "204"
    if shape is None:
        return {status: {"description": "No content"}}
    name = shape.removesuffix("[]")
    schema: dict[str, Any] = {"$ref": f"#/components/schemas/{name}"}
    if shape.endswith("[]"):
        schema = {"type": "array", "items": schema}
    return {
        status: {"description": "Response", "content": {"application/json": {"schema": schema}}}
    }


def spec() -> dict[str, Any]:
    """The document, as a dict ready for ``json.dumps``."""
    paths: dict[str, dict[str, Any]] = {}
    for operation_id, method, path, summary, tag, body, shape in operations():
        entry: dict[str, Any] = {
            "operationId": operation_id,
            "summary": summary,
            "description": f"{summary}. See the GitHub-like documentation for details.",
            "tags": [tag],
            "parameters": [_parameter(name) for name in re.findall(r"{(\w+)}", path)],
            "responses": _response(shape, method),
        }
        if method == "get" and shape and shape.endswith("[]"):
            entry["parameters"] += [
                {"name": "per_page", "in": "query", "schema": {"type": "integer", "default": 30}},
                {"name": "page", "in": "query", "schema": {"type": "integer", "default": 1}},
            ]
        if body is not None:
            entry["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": body}},
            }
        paths.setdefault(path, {})[method] = entry
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "GitHub-like REST API",
            "version": "1.1.4",
            "description": "A synthetic API shaped like GitHub's, for tests.",
        },
        "servers": [{"url": "https://api.github.example"}],
        "tags": [{"name": name, "description": text} for name, text in TAGS],
        "paths": paths,
        "components": {
            "schemas": {
                "simple-user": USER,
                "repository": REPOSITORY,
                "issue": ISSUE,
                "pull": PULL,
                "thing": THING,
            },
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
