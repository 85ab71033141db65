"""Label Studio 1.23.2 (Django REST Framework; its live OpenAPI 3.0 document, drf-spectacular's
/docs/api/schema/) driven through a generated MCP server.

The document's only credential is an API key in ``Authorization`` written as ``Token <key>``
(Fern's ``x-fern-header`` prefix); request bodies are offered as JSON, a form and multipart, of
which JSON goes. A project is created, tasks imported, listed (with a projection), annotated, the
project changed (a null clears its description), exported and the export downloaded as JSON and as
CSV (``application/*``), then deleted; every effect is checked with a direct request to Label
Studio.
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, only_text
from tests.realapis.servers import LABEL_STUDIO_TOKEN

pytestmark = pytest.mark.realapi

SENTIMENT = (
    '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text">'
    '<Choice value="Positive"/><Choice value="Negative"/></Choices></View>'
)


def _direct(live: LiveApi) -> httpx.Client:
    headers = {"Authorization": f"Token {LABEL_STUDIO_TOKEN}"}
    return httpx.Client(base_url=live.base_url, headers=headers, timeout=10)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_project_is_labelled_exported_and_deleted(label_studio: LiveApi, mode: str) -> None:
    texts = ["Great product", f"Broke in a day ({mode})"]
    with _direct(label_studio) as direct:
        async with mcp_client(label_studio.stdio(TOKEN_KEY=LABEL_STUDIO_TOKEN), mode) as client:
            project = content(
                await client.call_tool(
                    "projects_create",
                    {"title": f"Reviews {mode}", "label_config": SENTIMENT, "description": "d"},
                )
            )
            stored = direct.get(f"/api/projects/{project['id']}/").json()
            assert (stored["title"], stored["label_config"]) == (f"Reviews {mode}", SENTIMENT)

            imported = content(
                await client.call_tool(
                    "projects_import_create",
                    {
                        "id": project["id"],
                        "body": [{"data": {"text": text}} for text in texts],
                        "return_task_ids": True,
                    },
                )
            )
            assert imported["task_count"] == 2
            first, second = imported["task_ids"]

            listed = content(
                await client.call_tool(
                    "tasks_list",
                    {"project": project["id"], "_select": "tasks[].{id: id, text: data.text}"},
                )
            )
            assert listed == [{"id": first, "text": texts[0]}, {"id": second, "text": texts[1]}]

            choice = {"choices": ["Positive"]}
            result = [{"from_name": "sentiment", "to_name": "text", "type": "choices"}]
            annotation = content(
                await client.call_tool(
                    "tasks_annotations_create",
                    {"id": first, "result": [{**result[0], "value": choice}]},
                )
            )
            kept = direct.get(f"/api/annotations/{annotation['id']}/").json()
            assert (kept["task"], kept["result"][0]["value"]) == (first, choice)

            changed = content(
                await client.call_tool(
                    "projects_partial_update",
                    {"id": project["id"], "title": f"Product reviews {mode}", "description": None},
                )
            )
            assert (changed["title"], changed["description"]) == (f"Product reviews {mode}", None)
            stored = direct.get(f"/api/projects/{project['id']}/").json()
            assert (stored["title"], stored["description"]) == (f"Product reviews {mode}", None)

            export = content(
                await client.call_tool(
                    "projects_exports_create", {"id": project["id"], "title": "first"}
                )
            )
            assert (export["status"], export["counters"]) == ("completed", {"task_number": 2})
            download = {"id": project["id"], "export_pk": export["id"]}
            as_json = await client.call_tool("projects_exports_download_retrieve", download)
            assert not as_json.is_error, as_json
            tasks = json.loads(only_text(as_json))
            assert [(task["id"], task["data"]["text"]) for task in tasks] == [
                (first, texts[0]),
                (second, texts[1]),
            ]
            assert [len(task["annotations"]) for task in tasks] == [1, 0]
            as_csv = await client.call_tool(
                "projects_exports_download_retrieve", {**download, "exportType": "CSV"}
            )
            assert not as_csv.is_error, as_csv
            rows = only_text(as_csv).splitlines()
            assert rows[0].split(",")[:2] == ['"annotation_id"', '"annotator"']
            assert [row.split(",")[-2] for row in rows[1:]] == [f'"{text}"' for text in texts]

            gone = await client.call_tool("projects_destroy", {"id": project["id"]})
            assert (gone.is_error, only_text(gone)) == (False, "HTTP 204 No Content")
            assert direct.get(f"/api/projects/{project['id']}/").status_code == 404
            missing = await client.call_tool("projects_retrieve", {"id": project["id"]})
        assert missing.is_error
        assert only_text(missing).startswith("Upstream returned 404 Not Found: ")
        assert json.loads(only_text(missing).split(": ", 1)[1])["detail"] == (
            "No Project matches the given query."
        )


async def test_without_its_token_a_call_says_which_variable_to_set(label_studio: LiveApi) -> None:
    async with mcp_client(label_studio.stdio(), "auto") as client:
        refused = await client.call_tool("projects_list", {})
    assert refused.is_error
    answer, hint = only_text(refused).split("\n")
    assert answer.startswith("Upstream returned 401 Unauthorized: ")
    detail = json.loads(answer.split(": ", 1)[1])["detail"]
    assert detail == "Authentication credentials were not provided."
    assert hint == (
        "It was sent without credentials; to send them, set the environment variable "
        "LABEL_STUDIO_TOKEN_KEY."
    )
