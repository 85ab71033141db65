"""What a request asks to be answered in, and what an answer's type is to the operation."""

from __future__ import annotations

from typing import Any

from templates.runtime.upstream.negotiation import accept_header, documented_types


def _spec(**extra: Any) -> Any:
    return {"method": "GET", "path": "/c", "parameters": [], "security": [], **extra}


def test_the_documented_types_are_the_accept_headers_without_their_weights() -> None:
    # TiTiler's colour map: JSON first, then its image formats and a page
    spec = _spec(
        responseMediaType="application/json",
        accept="application/json, image/png;q=0.9, image/tiff; application=geotiff;q=0.9,"
        " Text/HTML;q=0.9",
    )
    assert documented_types(spec) == {"application/json", "image/png", "image/tiff", "text/html"}
    assert documented_types(_spec(responseMediaType="")) == frozenset()
    assert documented_types(_spec(responseMediaType="text/csv")) == {"text/csv"}


def test_a_format_named_in_the_query_takes_any_type_last() -> None:
    fmt = {"name": "f", "location": "query", "argument": "f"}
    spec = _spec(responseMediaType="application/json", accept="application/json", parameters=[fmt])
    assert accept_header(spec, {"f": "png"}) == "application/json, */*;q=0.1"
    assert accept_header(spec, {}) == "application/json"


def test_a_format_named_in_the_paths_suffix_takes_any_type_last() -> None:
    # Karrio's export (Django REST framework's format suffix): orders.csv is text/csv, not the
    # octet-stream its document says, which DRF answered with 406
    spec = _spec(
        path="/v1/batches/data/export/{resource_type}.{export_format}",
        responseMediaType="application/octet-stream",
    )
    assert accept_header(spec, {}) == "application/octet-stream, */*;q=0.1"
    assert accept_header(_spec(path="/v1/files/{name}", responseMediaType="text/csv"), {}) == (
        "text/csv"
    )
