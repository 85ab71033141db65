"""The API's name, as a person would choose it, from the title (or the server host).

Regression (issue 15): GitHub's description ("GitHub's official OpenAPI spec + Octokit extension")
became the package ``github-octokit-mcp``, the variables ``GITHUB_OCTOKIT_*``, the URI scheme
``githuboctokit://`` and the prose "the GitHub's official OpenAPI spec + Octokit extension API".
``--name`` and the config file's ``name`` still win, and ``inspect`` says where the name came from.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from click.testing import CliRunner

from openapi2mcp.cli import main
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.plan import naming
from openapi2mcp.plan.metatools import api_name
from openapi2mcp.plan.model import ServerPlan

GITHUB_TITLE = "GitHub's official OpenAPI spec + Octokit extension"


def _spec(tmp_path: Path, title: str, server: str = "https://api.example.com") -> Path:
    path = tmp_path / "openapi.yaml"
    path.write_text(
        dedent(
            f"""\
            openapi: 3.0.3
            info: {{title: "{title}", version: "1.0"}}
            servers: [{{url: "{server}"}}]
            paths:
              /a: {{post: {{operationId: a, responses: {{"204": {{description: ok}}}}}}}}
            """
        )
    )
    return path


def _plan(tmp_path: Path, title: str, server: str = "https://api.example.com") -> ServerPlan:
    return plan_source(str(_spec(tmp_path, title, server)), GenerateOptions())[0]


def test_githubs_description_gives_the_github_package_variables_scheme_and_prose(
    tmp_path: Path,
) -> None:
    plan = _plan(tmp_path, GITHUB_TITLE, "https://api.github.com")
    assert (plan.distribution, plan.package, plan.base_url_env, plan.uri_scheme) == (
        "github-mcp",
        "github_mcp",
        "GITHUB_BASE_URL",
        "github",
    )
    assert plan.instructions.startswith("Tools for the GitHub API: 1 operations, 0 of them")
    assert plan.metadata.summary == "MCP server for the GitHub API"
    assert plan.description == "MCP server for the GitHub API"
    # the title itself is kept where the API's own words are shown
    assert plan.title == GITHUB_TITLE


@pytest.mark.parametrize(
    ("title", "words", "prose"),
    [
        (GITHUB_TITLE, ["GitHub"], "the GitHub API"),
        ("Stripe API", ["Stripe"], "the Stripe API"),
        ("The Kubernetes API", ["Kubernetes"], "the Kubernetes API"),
        ("GitHub v3 REST API", ["GitHub"], "the GitHub API"),
        ("Acme API 2024-01-01", ["Acme"], "the Acme API"),
        ("Fulfillment.com APIv2", ["Fulfillment", "com"], "the Fulfillment.com API"),
        ("Box Platform API (v2.0)", ["Box", "Platform"], "the Box Platform API"),
        ("Octokit extension for GitHub", ["GitHub"], "the GitHub API"),
        ("GitHub\u2019s API", ["GitHub"], "the GitHub API"),
        # Microsoft Graph's description: a protocol and a namespace are not the API's name
        (
            "OData Service for namespace microsoft.graph",
            ["microsoft", "graph"],
            "the microsoft.graph API",
        ),
        # the bundled samples keep their names and their prose
        ("Swagger Petstore", ["Petstore"], "the Swagger Petstore API"),
        ("Bookshop API", ["Bookshop"], "the Bookshop API"),
        ("Slack Web API", ["Slack"], "the Slack Web API"),
        ("Airport & City Search", ["Airport", "City", "Search"], "the Airport & City Search API"),
        ("OpenAPI definition", [], "the OpenAPI definition API"),
    ],
)
def test_the_name_a_person_would_choose(title: str, words: list[str], prose: str) -> None:
    assert naming.api_words(title) == words
    assert api_name(title) == prose


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("https://api.github.com", "github"),
        ("https://api.stripe.com/v1", "stripe"),
        ("https://management.azure.com", "azure"),
        ("https://api.example.co.uk/x", "example"),
        ("http://localhost:8080", ""),
        ("http://127.0.0.1:9000/api", ""),
        ("/v1", ""),
    ],
)
def test_the_name_a_server_host_gives(url: str, name: str) -> None:
    assert naming.host_name(url) == name


def test_a_title_that_names_nothing_takes_the_server_hosts_name(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "OpenAPI definition", "https://api.stripe.com/v1")
    result = CliRunner().invoke(main, ["inspect", str(spec)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        "package stripe-mcp==1.0",
        'name stripe: from the server host api.stripe.com (info.title "OpenAPI definition"'
        " names no API)",
    ]


def test_on_localhost_a_title_that_names_nothing_is_used_as_written(tmp_path: Path) -> None:
    spec = _spec(tmp_path, "OpenAPI definition", "http://localhost:8080")
    result = CliRunner().invoke(main, ["inspect", str(spec)])
    assert result.output.splitlines()[:2] == [
        "package openapi-definition-mcp==1.0",
        'name openapi-definition: from info.title "OpenAPI definition" as written',
    ]


@pytest.mark.parametrize("title", ["FastAPI", "Litestar API"])
def test_a_frameworks_own_title_names_no_package(tmp_path: Path, title: str) -> None:
    """dstack's document keeps FastAPI's default title: the package was ``fastapi-mcp``, the name
    of a package on PyPI that installs the same ``fastapi_mcp`` module, and the prose spoke of
    "the FastAPI API"."""
    spec = _spec(tmp_path, title, "http://127.0.0.1:3000")
    result = CliRunner().invoke(main, ["inspect", str(spec)])
    assert result.stdout.splitlines()[:2] == [
        "package api-mcp==1.0",
        f'name api: from nothing (info.title "{title}" names no API, no server host)',
    ]
    plan, report = plan_source(str(spec), GenerateOptions())
    (told,) = [d for d in report.diagnostics if d.code == "title-names-framework"]
    assert told.message == (
        f"{title!r} is the title its framework gives a document and names no API; the package is "
        "api-mcp: give it a name with --name"
    )
    assert (plan.title, api_name(title)) == ("api-mcp", "the API")
    named = CliRunner().invoke(main, ["inspect", str(spec), "--name", "dstack"])
    assert named.stdout.splitlines()[0] == "package dstack-mcp==1.0"


def test_inspect_says_the_name_came_from_the_title(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["inspect", str(_spec(tmp_path, GITHUB_TITLE))])
    assert result.output.splitlines()[:2] == [
        "package github-mcp==1.0",
        f'name github: from info.title "{GITHUB_TITLE}"',
    ]


def test_the_name_flag_and_the_config_file_still_win(tmp_path: Path) -> None:
    spec = _spec(tmp_path, GITHUB_TITLE, "https://api.github.com")
    flagged = CliRunner().invoke(main, ["inspect", str(spec), "--name", "octo"])
    assert flagged.output.splitlines()[:2] == ["package octo-mcp==1.0", "name octo: from --name"]
    (tmp_path / "openapi2mcp.toml").write_text('name = "hub"\n')
    configured = CliRunner().invoke(main, ["inspect", str(spec)])
    assert configured.output.splitlines()[:2] == [
        "package hub-mcp==1.0",
        "name hub: from the config file's name",
    ]
    both = CliRunner().invoke(main, ["inspect", str(spec), "--name", "octo"])
    assert both.output.splitlines()[1] == "name octo: from --name"
