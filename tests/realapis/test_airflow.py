"""Apache Airflow 2.10.5 (its REST API served by Connexion from a hand-written OpenAPI 3.0
document, /api/v1/openapi.yaml, against which every request is checked) driven through a
generated MCP server. The DAG is unpaused with an empty update mask, which goes as no parameter at
all (an empty list is undefined; `update_mask=` had read as one empty field name, refused).

Its document declares Basic authentication and requires none (`security: []`: the deployment
chooses): the user and password the generated README names are sent when they are set, and a call
made without them says which variables to set. A DAG is found and unpaused, run with a
configuration, its run found by a filter and given a note, a variable and a pool are made, changed
and deleted; every effect is checked with a direct request to Airflow.
"""

from __future__ import annotations

import base64

import httpx
import pytest

from tests.realapis.conftest import AIRFLOW_PASSWORD, LiveApi, content, mcp_client, only_text

pytestmark = pytest.mark.realapi


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_dag_is_run_and_its_variables_and_pools_are_kept(
    airflow: LiveApi, mode: str
) -> None:
    pair = base64.b64encode(f"admin:{AIRFLOW_PASSWORD}".encode()).decode()
    signed = {"Authorization": f"Basic {pair}"}
    with httpx.Client(base_url=airflow.base_url, headers=signed, timeout=30) as direct:
        async with mcp_client(airflow.stdio(**airflow.credentials), mode) as client:
            dags = content(await client.call_tool("get_dags", {"_select": "dags[].dag_id"}))
            assert dags == ["hello"]
            unpaused = content(
                await client.call_tool(
                    "patch_dag", {"dag_id": "hello", "is_paused": False, "update_mask": []}
                )
            )
            assert unpaused["is_paused"] is False
            assert direct.get("/dags/hello").json()["is_paused"] is False

            run_id = f"manual-{mode}"
            made = content(
                await client.call_tool(
                    "post_dag_run",
                    {"dag_id": "hello", "dag_run_id": run_id, "conf": {"greeting": "hi"}},
                )
            )
            assert (made["dag_run_id"], made["conf"]) == (run_id, {"greeting": "hi"})
            found = content(
                await client.call_tool(
                    "get_dag_runs",
                    {"dag_id": "hello", "order_by": "-execution_date", "limit": 10},
                )
            )
            assert run_id in [run["dag_run_id"] for run in found["dag_runs"]]
            noted = await client.call_tool(
                "set_dag_run_note",
                {"dag_id": "hello", "dag_run_id": run_id, "note": "started by the tests"},
            )
            assert not noted.is_error, noted
            assert direct.get(f"/dags/hello/dagRuns/{run_id}").json()["note"] == (
                "started by the tests"
            )

            key = f"greeting_{mode}"
            await client.call_tool("post_variables", {"key": key, "value": "hello"})
            changed = await client.call_tool(
                "patch_variable",
                # (not with an update mask: Airflow 2.10 reads "value" as its own "val" and
                # refuses the mask "value" names)
                {"variable_key": key, "key": key, "value": "bonjour"},
            )
            assert not changed.is_error, changed
            assert direct.get(f"/variables/{key}").json()["value"] == "bonjour"
            gone = await client.call_tool("delete_variable", {"variable_key": key})
            assert not gone.is_error, gone
            assert direct.get(f"/variables/{key}").status_code == 404

            pool = content(await client.call_tool("post_pool", {"name": f"gpu-{mode}", "slots": 2}))
            assert (pool["slots"], pool["open_slots"]) == (2, 2)
            assert direct.get(f"/pools/gpu-{mode}").json()["slots"] == 2
            assert not (
                await client.call_tool("delete_pool", {"pool_name": f"gpu-{mode}"})
            ).is_error


async def test_a_call_without_credentials_names_the_variables_its_readme_names(
    airflow: LiveApi,
) -> None:
    async with mcp_client(airflow.stdio(), "auto") as client:
        refused = await client.call_tool("get_dags", {})
    assert refused.is_error
    answer, hint = only_text(refused).split("\n")
    assert answer.startswith("Upstream returned 401 UNAUTHORIZED: {")
    assert hint == (
        "It was sent without credentials; to send them, set the environment variable "
        "AIRFLOW_BASIC_USERNAME and AIRFLOW_BASIC_PASSWORD, or set AIRFLOW_GOOGLE_OPEN_ID_TOKEN."
    )
