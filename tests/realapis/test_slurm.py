"""Slurm's REST API (slurmrestd 22.05, Debian: a C server that writes its own OpenAPI 3.0 document)
over a one-node cluster of 127.0.0.1, driven through a generated MCP server.

Every answer of slurmrestd is documented as JSON and as YAML under one schema, and slurmrestd picks
among the types an ``Accept`` header lists at random, whatever their weights: the tools ask for
JSON alone, so every answer is structured content. A job is submitted, runs and writes its output;
another is held, changed and cancelled; each effect is checked past the MCP server, with a direct
request to slurmrestd or the job's own output file.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from mcp import Client

from tests.realapis.conftest import (
    LiveApi,
    content,
    mcp_client,
    only_text,
    result_json,
    texts,
)

pytestmark = pytest.mark.realapi

V = "slurm_v0_0_38_"


def _job(live: LiveApi, job_id: int) -> dict[str, Any]:
    """The job as slurmrestd has it, read directly with the same credentials."""
    headers = {
        "X-SLURM-USER-NAME": live.credentials["USER_KEY"],
        "X-SLURM-USER-TOKEN": live.credentials["TOKEN_KEY"],
        "Accept": "application/json",
    }
    answer = httpx.get(f"{live.base_url}/slurm/v0.0.38/job/{job_id}", headers=headers, timeout=10)
    answer.raise_for_status()
    (job,) = answer.json()["jobs"]
    return dict(job)


async def _finished(client: Client, job_id: int, timeout: float = 60.0) -> dict[str, Any]:
    """The job once it has left the queue and its node, read through the tool."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        (job,) = content(await client.call_tool(V + "get_job", {"job_id": str(job_id)}))["jobs"]
        if job["job_state"] not in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING"):
            return dict(job)
        assert asyncio.get_running_loop().time() < deadline, job["job_state"]
        await asyncio.sleep(0.3)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_job_is_submitted_runs_and_writes_its_output(slurm_api: LiveApi, mode: str) -> None:
    assert slurm_api.files is not None
    async with mcp_client(slurm_api.stdio(**slurm_api.credentials), mode) as client:
        ping = await client.call_tool(V + "ping", {})
        # JSON, not the YAML slurmrestd may pick when YAML is asked for too: one block, no note
        assert len(texts(ping)) == 1, texts(ping)
        assert [p["ping"] for p in content(ping)["pings"]] == ["UP"]

        output = slurm_api.files / f"hello-{mode}-%j.out"
        submitted = content(
            await client.call_tool(
                V + "submit_job",
                {
                    "script": '#!/bin/sh\necho "hello from $SLURM_JOB_NAME"\n',
                    "job": {
                        "name": f"mcp-{mode}",
                        "environment": {"PATH": "/usr/bin:/bin"},
                        "current_working_directory": str(slurm_api.files),
                        "standard_output": str(output),
                        "time_limit": 1,
                    },
                },
            )
        )
        job_id = submitted["job_id"]
        assert submitted["errors"] == []

        job = await _finished(client, job_id)
        assert (job["job_state"], job["name"], job["user_name"]) == (
            "COMPLETED",
            f"mcp-{mode}",
            "nobody",
        )
        written = slurm_api.files / f"hello-{mode}-{job_id}.out"
        assert written.read_text() == f"hello from mcp-{mode}\n"

        listed = content(await client.call_tool(V + "get_jobs", {}))
        assert job_id in [each["job_id"] for each in listed["jobs"]]


async def test_a_held_job_is_changed_and_cancelled(slurm_api: LiveApi) -> None:
    assert slurm_api.files is not None
    async with mcp_client(slurm_api.stdio(**slurm_api.credentials)) as client:
        submitted = content(
            await client.call_tool(
                V + "submit_job",
                {
                    "script": "#!/bin/sh\nsleep 60\n",
                    "job": {
                        "name": "mcp-held",
                        "environment": {"PATH": "/usr/bin:/bin"},
                        "current_working_directory": str(slurm_api.files),
                        "hold": True,
                    },
                },
            )
        )
        job_id = submitted["job_id"]
        # slurmrestd says a held job is held among its errors, and answers 200: a success
        assert [error["error_code"] for error in submitted["errors"]] == [2042]
        assert _job(slurm_api, job_id)["job_state"] == "PENDING"

        # the document makes every job property it lists required on a change too, environment
        # among them: refused before any request, with the property named
        refused = await client.call_tool(V + "update_job", {"job_id": str(job_id), "comment": "x"})
        assert refused.is_error
        assert only_text(refused) == (
            f"Invalid arguments for tool '{V}update_job':\n"
            '- (arguments): "environment" is a required property'
        )
        changed = await client.call_tool(
            V + "update_job",
            {
                "job_id": str(job_id),
                "comment": "changed through MCP",
                "time_limit": 7,
                "environment": {"PATH": "/usr/bin:/bin"},
            },
        )
        # the document says no body for the change's 200 or the cancel's: the JSON comes as text
        assert result_json(changed)["errors"] == []
        job = _job(slurm_api, job_id)
        assert (job["comment"], job["time_limit"]) == ("changed through MCP", 7)

        cancelled = await client.call_tool(V + "cancel_job", {"job_id": str(job_id)})
        assert result_json(cancelled)["errors"] == []
        assert _job(slurm_api, job_id)["job_state"] == "CANCELLED"

        # slurmrestd answers 500 for a job it does not know; its words reach the model
        missing = await client.call_tool(V + "get_job", {"job_id": "999999"})
        assert missing.is_error
        assert '"description":"Unable to find JobId=999999"' in only_text(missing)
        assert only_text(missing).startswith("Upstream returned 500 INTERNAL ERROR: ")


async def test_nodes_and_partitions_are_resources(slurm_api: LiveApi) -> None:
    async with mcp_client(slurm_api.stdio(**slurm_api.credentials)) as client:
        templates = {
            template.uri_template
            for template in (await client.list_resource_templates()).resource_templates
        }
        assert "slurm://slurm/v0.0.38/partition/{partition_name}{?update_time}" in templates
        read = await client.read_resource("slurm://slurm/v0.0.38/partition/debug")
        (partition,) = json.loads(read.contents[0].text)["partitions"]
        assert (partition["name"], partition["max_time_limit"]) == ("debug", 60)
