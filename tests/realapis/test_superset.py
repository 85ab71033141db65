"""Apache Superset 6.1.0 (Flask-AppBuilder; its live OpenAPI 3.0 document, /api/v1/_openapi, is
written by apispec from marshmallow schemas) driven through a generated MCP server.

A SQLite database is registered, queried through SQL Lab, filled with a table from a CSV upload
(a multipart body whose file apispec writes as ``{type: string, format: text/csv}``), made a
dataset and a chart; the chart is found with a filter given as JSON in the ``q`` query parameter
and deleted in bulk with a list there. Every effect is checked with a direct request to Superset.
Its list answers break its document (ids are integers its document calls strings): successes that
say so.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import httpx
import pytest

from tests.realapis.conftest import LiveApi, content, mcp_client, texts

pytestmark = pytest.mark.realapi


def _zoo(path: Path) -> None:
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("create table pets (id integer primary key, name text, kind text)")
        connection.executemany(
            "insert into pets (name, kind) values (?, ?)",
            [("Tom", "cat"), ("Rex", "dog"), ("Kit", "cat")],
        )


async def test_a_database_is_queried_filled_from_a_csv_and_charted(
    superset: LiveApi, tmp_path: Path
) -> None:
    zoo = tmp_path / "zoo.db"
    _zoo(zoo)
    bearer = {"Authorization": f"Bearer {superset.credentials['JWT_TOKEN']}"}

    def query(sql: str) -> list[dict[str, object]]:
        asked = {"database_id": database["id"], "sql": sql, "runAsync": False}
        rows: list[dict[str, object]] = direct.post("/api/v1/sqllab/execute/", json=asked).json()[
            "data"
        ]
        return rows

    with httpx.Client(base_url=superset.base_url, headers=bearer, timeout=30) as direct:
        async with mcp_client(superset.stdio(**superset.credentials), "auto") as client:
            database = content(
                await client.call_tool(
                    "post_api_v1_database",
                    {
                        "database_name": "zoo",
                        "sqlalchemy_uri": f"sqlite:///{zoo}",
                        "expose_in_sqllab": True,
                        "allow_file_upload": True,
                        "allow_dml": True,
                    },
                )
            )
            stored = direct.get(f"/api/v1/database/{database['id']}").json()["result"]
            assert stored["database_name"] == "zoo"

            counted = content(
                await client.call_tool(
                    "post_api_v1_sqllab_execute",
                    {
                        "database_id": database["id"],
                        "sql": "select kind, count(*) as n from pets group by kind order by kind",
                        "runAsync": False,
                    },
                )
            )
            assert counted["data"] == [{"kind": "cat", "n": 2}, {"kind": "dog", "n": 1}]

            uploaded = await client.call_tool(
                "post_api_v1_database_pk_upload",
                {
                    "pk": database["id"],
                    "file": "id,name\n1,Luna\n2,Max\n",
                    "table_name": "visits",
                    "type": "csv",
                },
            )
            assert not uploaded.is_error, uploaded
            assert query("select name from visits order by id") == [
                {"name": "Luna"},
                {"name": "Max"},
            ]

            dataset = content(
                await client.call_tool(
                    "post_api_v1_dataset", {"database": database["id"], "table_name": "pets"}
                )
            )
            chart = content(
                await client.call_tool(
                    "post_api_v1_chart",
                    {
                        "slice_name": "Pets by kind",
                        "viz_type": "table",
                        "datasource_id": dataset["id"],
                        "datasource_type": "table",
                    },
                )
            )
            found = await client.call_tool(
                "get_api_v1_chart",
                {
                    "q": {
                        "filters": [{"col": "slice_name", "opr": "ct", "value": "Pets"}],
                        "columns": ["id", "slice_name"],
                    }
                },
            )
            listed = content(found)
            assert listed["result"] == [{"id": chart["id"], "slice_name": "Pets by kind"}]
            assert listed["ids"] is None  # what breaks the document is nulled, as the note says
            answer, drift = texts(found)
            assert f'"ids":[{chart["id"]}]' in answer
            assert drift.split("\n")[:2] == [
                "The call succeeded (HTTP 200 OK). Its response does not match the documented "
                "schema:",
                f'- ids[0]: {chart["id"]} is not of types "null", "string"',
            ]

            gone = await client.call_tool("delete_api_v1_chart", {"q": [chart["id"]]})
            assert not gone.is_error, gone
            assert direct.get(f"/api/v1/chart/{chart['id']}").status_code == 404
