"""pygeoapi for the `realapi` tests: its configuration and data, written into a directory of the
test session, its OpenAPI document written by its own CLI, and the server started on a free port.

pygeoapi serves what its configuration lists: here a GeoJSON file of lakes (points with a time
field), a CSV file of stations, an editable TinyDB collection of notes (OGC API Features part 4,
transactions) and its hello-world process, whose jobs a TinyDB manager records. Its OpenAPI document
is not made on request: ``pygeoapi openapi generate`` writes it from the configuration before the
server starts (``PYGEOAPI_OPENAPI``), and the server serves that file at ``/openapi``.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.realapis.servers import RealServer, free_port, venv_executable

# the lakes of the GeoJSON collection: id, name, area, country, when observed, where (lon, lat)
LAKES: tuple[tuple[int, str, float, str, str, tuple[float, float]], ...] = (
    (1, "Lake Alpha", 12.5, "CA", "2020-05-01T00:00:00Z", (-75.0, 45.0)),
    (2, "Lake Beta", 3.2, "US", "2021-06-15T00:00:00Z", (-80.0, 40.0)),
    (3, "Lac Gamma", 7.0, "FR", "2022-07-20T00:00:00Z", (2.35, 48.85)),
    (4, "Lago Delta", 1.1, "IT", "2023-08-25T00:00:00Z", (12.5, 41.9)),
)

STATIONS_CSV = """\
id,station,long,lat,value,stationname
1,A100,-75.5,45.4,10.5,Ottawa
2,B200,-73.6,45.5,20.1,Montreal
3,C300,-79.4,43.7,30.7,Toronto
4,D400,2.35,48.85,5.0,Paris
5,E500,-0.12,51.5,7.5,London
"""

# the notes the editable collection starts with (TinyDB's file: documents by number)
NOTES: tuple[dict[str, Any], ...] = (
    {
        "type": "Feature",
        "id": "n1",
        "properties": {"title": "First note", "category": "a", "datetime": "2024-01-01T00:00:00Z"},
        "geometry": {"type": "Point", "coordinates": [10, 50]},
    },
    {
        "type": "Feature",
        "id": "n2",
        "properties": {"title": "Second note", "category": "b", "datetime": "2024-02-01T00:00:00Z"},
        "geometry": {"type": "Point", "coordinates": [11, 51]},
    },
)

WORLD = {
    "spatial": {"bbox": [-180, -90, 180, 90], "crs": "http://www.opengis.net/def/crs/OGC/1.3/CRS84"}
}


def lake(number: int) -> dict[str, Any]:
    """Lake ``number`` as the GeoJSON file holds it (and pygeoapi answers it)."""
    found = next(entry for entry in LAKES if entry[0] == number)
    ident, name, area, country, observed, (lon, lat) = found
    properties = {"id": ident, "name": name, "area": area, "country": country, "observed": observed}
    return {
        "type": "Feature",
        "id": ident,
        "properties": properties,
        "geometry": {"type": "Point", "coordinates": [lon, lat]},
    }


def _collection(title: str, description: str, provider: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "collection",
        "title": title,
        "description": description,
        "keywords": [title.lower()],
        "extents": WORLD,
        "providers": [{"type": "feature", **provider}],
    }


def configuration(home: Path, port: int) -> dict[str, Any]:
    """pygeoapi's configuration for a server on 127.0.0.1:``port`` with its data in ``home``."""
    data = home / "data"
    return {
        "server": {
            "bind": {"host": "127.0.0.1", "port": port},
            "url": f"http://127.0.0.1:{port}",
            "mimetype": "application/json; charset=UTF-8",
            "encoding": "utf-8",
            "languages": ["en-US"],
            "limits": {"default_items": 10, "max_items": 50},
            # only the HTML pages name it; nothing is fetched from it
            "map": {"url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "attribution": "OSM"},
            "manager": {
                "name": "TinyDB",
                "connection": str(data / "jobs.db"),
                "output_dir": str(data / "jobs-output"),
            },
        },
        "logging": {"level": "ERROR"},
        "metadata": {
            "identification": {
                "title": {"en": "Realapi geo server"},
                "description": {"en": "pygeoapi for the realapi tests"},
                "keywords": {"en": ["geo"]},
                "keywords_type": "theme",
                "terms_of_service": "https://example.org",
                "url": "https://example.org",
            },
            "license": {
                "name": "CC-BY 4.0",
                "url": "https://creativecommons.org/licenses/by/4.0/",
            },
            "provider": {"name": "Test", "url": "https://example.org"},
            "contact": {
                "name": "Tester",
                "email": "test@example.org",
                "url": "https://example.org",
            },
        },
        "resources": {
            "lakes": _collection(
                "Lakes",
                "Sample lakes (GeoJSON file provider)",
                {
                    "name": "GeoJSON",
                    "data": str(data / "lakes.geojson"),
                    "id_field": "id",
                    "time_field": "observed",
                    "title_field": "name",
                },
            ),
            "stations": _collection(
                "Stations",
                "Sample stations (CSV provider)",
                {
                    "name": "CSV",
                    "data": str(data / "stations.csv"),
                    "id_field": "id",
                    "geometry": {"x_field": "long", "y_field": "lat"},
                },
            ),
            "notes": _collection(
                "Notes",
                "Editable notes (TinyDB provider, transactions)",
                {
                    "name": "TinyDB",
                    "editable": True,
                    "data": str(data / "notes.json"),
                    "id_field": "id",
                    "time_field": "datetime",
                },
            ),
            "hello-world": {"type": "process", "processor": {"name": "HelloWorld"}},
        },
    }


def write_home(home: Path, port: int) -> Path:
    """The configuration and data files in ``home``; the configuration's path."""
    data = home / "data"
    (data / "jobs-output").mkdir(parents=True)
    lakes = {"type": "FeatureCollection", "features": [lake(entry[0]) for entry in LAKES]}
    (data / "lakes.geojson").write_text(json.dumps(lakes), encoding="utf-8")
    (data / "stations.csv").write_text(STATIONS_CSV, encoding="utf-8")
    notes = {"_default": {str(number): note for number, note in enumerate(NOTES, 1)}}
    (data / "notes.json").write_text(json.dumps(notes), encoding="utf-8")
    config = home / "pygeoapi-config.yml"
    config.write_text(yaml.safe_dump(configuration(home, port), sort_keys=False), encoding="utf-8")
    return config


@contextlib.contextmanager
def running(realapi_dir: Path) -> Iterator[RealServer]:
    """pygeoapi 0.21 on a free port of 127.0.0.1 (``pygeoapi serve``: Flask's development server),
    its configuration, data and OpenAPI document in ``realapi_dir/pygeoapi-home``."""
    executable = venv_executable("pygeoapi", "pygeoapi")
    home = realapi_dir / "pygeoapi-home"
    home.mkdir()
    port = free_port()
    config = write_home(home, port)
    document = home / "pygeoapi-openapi.yml"
    env = {"PYGEOAPI_CONFIG": str(config), "PYGEOAPI_OPENAPI": str(document)}
    made = subprocess.run(
        [executable, "openapi", "generate", config, "--format", "yaml", "--output-file", document],
        env={**os.environ, **env},
        cwd=home,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if made.returncode != 0 or not document.is_file():
        pytest.fail(f"pygeoapi openapi generate failed ({made.returncode}):\n{made.stderr[-3000:]}")
    with RealServer(
        "pygeoapi",
        [executable, "serve"],
        port=port,
        ready_path="/conformance?f=json",
        log_dir=realapi_dir,
        cwd=home,
        env=env,
    ) as server:
        yield server
