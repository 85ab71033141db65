"""What a request asks to be answered in: its ``Accept`` header. Stdlib only."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..catalog.model import OperationSpec

# query parameters that name the format of the answer (Django REST framework's, OGC API's)
FORMAT_PARAMETERS = frozenset({"format", "f"})
# a path that ends in a format its variable names (Django REST framework's format suffix: Karrio's
# /v1/batches/data/export/{resource_type}.{export_format}, answered 406 to the octet-stream its
# document says when asked for orders.csv)
_FORMAT_SUFFIX = re.compile(r"\.\{[^}/]+\}/?$")


def accept_header(spec: OperationSpec, arguments: Mapping[str, Any]) -> str:
    """The ``Accept`` header: the media types the operation documents, preferred first; and any
    other, last, when the call names a format in its query (``?format=csv``, which Django REST
    framework refuses with 406 if the header does not take the type it names; OGC API's and
    ArcGIS's ``?f=``) or in its path's suffix (``.{format}``)."""
    accept = spec.get("accept") or spec["responseMediaType"] or "*/*"
    asks_format = _FORMAT_SUFFIX.search(spec["path"]) is not None or any(
        param["location"] == "query"
        and param["name"].lower().lstrip("_$") in FORMAT_PARAMETERS
        and arguments.get(param["argument"]) is not None
        for param in spec["parameters"]
    )
    return f"{accept}, */*;q=0.1" if asks_format and "*/*" not in accept else accept


def documented_types(spec: OperationSpec) -> frozenset[str]:
    """The media types the operation documents for its success answers (its ``Accept``), each
    in lower case without parameters."""
    listed = [spec["responseMediaType"], *spec.get("accept", "").split(",")]
    return frozenset(
        kind for kind in (item.split(";", 1)[0].strip().lower() for item in listed) if kind
    )
