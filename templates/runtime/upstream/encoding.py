"""How tool arguments are written into an HTTP request's path, query, headers and cookies.

Pure functions, no I/O: path, query, header and cookie values in their OpenAPI ``style``/``explode``
(``style_pairs`` serves form bodies too, ``upstream_bodies``), deepObject values nested as the big
form-encoded APIs document them (``a[b]=x``, arrays ``a[0]=x`` by default, ``a[]=x`` or repeated
keys on request), and parameters described by ``content`` written in their media type (JSON) under
their own name. An explicit ``null`` argument means "leave the parameter out". Every value is
percent-encoded so it can never add a path segment, a query parameter or a fragment; a path value
that would still be read as ``.``/``..`` by a server that decodes before routing is refused, and so
is a header value with a line break. Refusals raise ``EncodingRefused``, whose message names the
argument and never repeats its value. ``upstream`` turns them into ``UpstreamError``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, unquote

from ..catalog.model import ParameterSpec
from ..errors import EncodingRefused

__all__ = [
    "ARRAY_MODES",
    "INDEXED",
    "EncodingRefused",
    "cookie_pairs",
    "encode_path",
    "header_value",
    "is_json",
    "media_text",
    "media_type",
    "query_pairs",
    "scalar",
    "style_pairs",
]

# how arrays inside deepObject values are written (OpenAPI leaves it open)
INDEXED, BRACKETS, REPEAT = "indexed", "brackets", "repeat"
ARRAY_MODES = (INDEXED, BRACKETS, REPEAT)

# With allowReserved these stay literal; "&", "=", "+" and "#" are always encoded because they
# would change the query's structure (or start a fragment).
_QUERY_RESERVED = ":/?[]@!$'()*,;"
_PATH_LITERAL_SAFE = "/:@!$&'()*+,;=-._~%"
_TEXT_MEDIA = re.compile(
    r"text/.*|application/(xml|yaml|x-yaml|javascript|graphql|sql)|.*\+xml", re.IGNORECASE
)
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
_SEGMENT_SEPARATORS = re.compile(r"[/\\]")
# a "%" that starts no escape: written as "%25" (escapes an API gave in an href stay as they are)
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
# how many rounds of percent-decoding a server (or a chain of proxies) might apply
_DECODE_ROUNDS = 3


def scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _encode_all(text: str) -> str:
    return quote(text, safe="")


def _flatten(value: Any, explode: bool, enc: Callable[[str], str]) -> list[str]:
    """Array items, or object members as ``k=v`` (explode) / ``k, v`` (no explode), encoded."""
    if isinstance(value, dict):
        pairs = [(enc(str(k)), enc(scalar(v))) for k, v in value.items() if v is not None]
        if explode:
            return [f"{k}={v}" for k, v in pairs]
        return [x for pair in pairs for x in pair]
    if isinstance(value, list | tuple):
        return [enc(scalar(v)) for v in value if v is not None]
    return [enc(scalar(value))]


def _texts(value: Any) -> list[str]:
    """Every piece of text a value contributes to the URL (keys and items included)."""
    if isinstance(value, dict):
        return [str(k) for k in value] + [scalar(v) for v in value.values() if v is not None]
    if isinstance(value, list | tuple):
        return [scalar(v) for v in value if v is not None]
    return [scalar(value)]


def _is_dot_segment(text: str) -> bool:
    """Whether ``text`` holds a ``.``/``..`` segment, now or after a server percent-decodes it.

    Encoding alone is not enough: servers and proxies that decode ``%2F`` or ``%2E`` before routing
    (and then resolve dot segments) would still let ``..%2Fadmin`` climb out of its segment.
    """
    for _ in range(_DECODE_ROUNDS + 1):
        if any(part in (".", "..") for part in _SEGMENT_SEPARATORS.split(text)):
            return True
        decoded = unquote(text)
        if decoded == text:
            return False
        text = decoded
    return True  # still changing after several rounds: nobody needs that in a path


def _path_value(spec: ParameterSpec, value: Any) -> str:
    if any(_is_dot_segment(text) for text in _texts(value)):
        raise EncodingRefused(
            f"argument {spec['argument']!r} is refused: as a path segment it would contain "
            "'.' or '..', which could reach another path of the API"
        )
    media = spec.get("contentType")
    if media:
        return _encode_all(media_text(value, media))
    style, explode = spec["style"] or "simple", spec["explode"]
    items = _flatten(value, explode, _encode_all)
    if style == "label":
        return "." + ("." if explode else ",").join(items)
    if style == "matrix":
        name = _encode_all(spec["name"])
        if isinstance(value, dict) and explode:
            return "".join(f";{item}" for item in items)
        if isinstance(value, list | tuple) and explode:
            return "".join(f";{name}={item}" for item in items)
        joined = ",".join(items)
        return f";{name}={joined}" if joined else f";{name}"
    return ",".join(items)


def _whole_path(spec: ParameterSpec, value: Any, follows: str) -> str:
    """A value that is a path of the API (an href a response gave: ``/pulp/api/v3/tasks/1/``),
    put where its template starts (after the ``/`` the template gives): its slashes kept, the
    rest encoded, a ``/`` added before what the template adds (``add_role/``) when it lacks one.
    """
    argument = spec["argument"]
    if isinstance(value, dict | list | tuple) or not scalar(value).strip("/"):
        raise EncodingRefused(
            f"argument {argument!r} takes a path of the API, such as an href a response gave"
        )
    text = scalar(value)
    if "://" in text or text.startswith("//") or "\\" in text:
        # the credentials go with the request: never to a host the value names
        raise EncodingRefused(
            f"argument {argument!r} is refused: it takes a path of the API (such as an href a "
            "response gave, '/…/'), not a URL"
        )
    if _is_dot_segment(text):
        raise EncodingRefused(
            f"argument {argument!r} is refused: the path contains '.' or '..', which could "
            "reach another path of the API"
        )
    text = quote(_STRAY_PERCENT.sub("%25", text.removeprefix("/")), safe=_PATH_LITERAL_SAFE)
    if follows and not follows.startswith("/") and not text.endswith("/"):
        text += "/"
    return text


def _no_dot_segments(path: str) -> str:
    # "." and ".." would be resolved away by clients, proxies and servers alike
    return "/".join(
        seg.replace(".", "%2E") if seg and set(seg) == {"."} else seg for seg in path.split("/")
    )


def encode_path(
    template: str, parameters: Mapping[str, ParameterSpec], arguments: Mapping[str, Any]
) -> str:
    """The operation's path with each ``{name}`` filled, always starting with ``/``.

    The literal text of the path is encoded too, so a spec cannot smuggle a query or a fragment,
    and the result cannot change the base URL's host (it is appended after a ``/``).
    """

    def substitute(match: re.Match[str]) -> str:
        param = parameters.get(match.group(1))
        if param is None:
            raise EncodingRefused(f"path parameter {match.group(1)!r} is not described")
        value = arguments.get(param["argument"])
        if param.get("wholePath") and value is not None:
            return _whole_path(param, value, match.string[match.end() :])
        text = None if value is None else _path_value(param, value)
        if text == "" and value == "" and param.get("allowEmpty"):
            return text  # the spec names the empty value (enum: [""]): an empty segment
        if not text:
            if value is None:
                raise EncodingRefused(f"missing required argument {param['argument']!r}")
            # an empty segment would reach another operation (/entities/ lists them all)
            raise EncodingRefused(
                f"argument {param['argument']!r} is empty: a path segment needs a value"
            )
        return text

    pieces = _PLACEHOLDER.split(template)
    for i in range(0, len(pieces), 2):
        pieces[i] = quote(pieces[i], safe=_PATH_LITERAL_SAFE)
    literal = "".join(p if i % 2 == 0 else "{" + p + "}" for i, p in enumerate(pieces))
    path = _no_dot_segments(_PLACEHOLDER.sub(substitute, literal))
    return path if path.startswith("/") else "/" + path


def query_pairs(spec: ParameterSpec, value: Any, arrays: str = INDEXED) -> list[str]:
    """``name=value`` pairs of one query parameter (already percent-encoded)."""
    safe = _QUERY_RESERVED if spec.get("allowReserved") else ""
    name = quote(spec["name"], safe="[]")
    if spec.get("flag") and isinstance(value, bool):
        return [name] if value else []
    media = spec.get("contentType")
    if media:
        return [f"{name}={quote(media_text(value, media), safe=safe)}"]

    def enc(text: str) -> str:
        return quote(text, safe=safe)

    return style_pairs(name, value, spec["style"] or "form", spec["explode"], enc, arrays)


def style_pairs(
    name: str,
    value: Any,
    style: str,
    explode: bool,
    enc: Callable[[str], str],
    arrays: str = INDEXED,
) -> list[str]:
    """``name=value`` pairs of a value in a query or form ``style`` (``name`` already encoded).

    deepObject nests: ``a[b][c]=x``; an array inside it is written as ``arrays`` says (``a[0]=x``,
    ``a[]=x`` or ``a=x``), since OpenAPI leaves that open.
    """
    if isinstance(value, dict | list | tuple) and not value:
        # an empty list or object is undefined (RFC 6570, 2.3): nothing is sent, not `name=` (which
        # a server reads as one empty value: Airflow's update_mask=[""] names no field it knows)
        return []
    if style == "deepObject" and isinstance(value, dict | list | tuple):
        return _deep_object(name, value, enc, arrays)
    if isinstance(value, dict) and explode:
        return _flatten(value, True, enc)
    if isinstance(value, list | tuple) and explode:
        return [f"{name}={item}" for item in _flatten(value, True, enc)]
    separator = {"spaceDelimited": "%20", "pipeDelimited": "|"}.get(style, ",")
    return [f"{name}={separator.join(_flatten(value, False, enc))}"]


def _deep_object(name: str, value: Any, enc: Callable[[str], str], arrays: str) -> list[str]:
    """``name[key][key]=value`` pairs. A null inside is written empty (``filters[title][$eq]=``,
    as ``qs`` writes it: leaving it out would drop the condition, and the query would match more
    than asked); an empty list inside cannot be written at all (``qs`` leaves it out, and a
    ``$in: []`` that matched nothing would then match everything), so it is refused."""
    if isinstance(value, dict):
        out: list[str] = []
        for key, member in value.items():
            out += _deep_object(f"{name}[{quote(str(key), safe='')}]", member, enc, arrays)
        return out
    if isinstance(value, list | tuple):
        if not value and "[" in name:
            raise EncodingRefused(
                f"{unquote(name)} is an empty list, which a query string cannot carry: leave it "
                "out, or give at least one value"
            )
        if arrays == REPEAT:
            return [pair for item in value for pair in _deep_object(name, item, enc, arrays)]
        return [
            pair
            for index, item in enumerate(value)
            for pair in _deep_object(
                f"{name}[{index}]" if arrays == INDEXED else f"{name}[]", item, enc, arrays
            )
        ]
    return [f"{name}={enc(scalar(value))}"]


def media_text(value: Any, media: str) -> str:
    """``value`` written in the media type of a ``content`` parameter or a form field: JSON for
    JSON types, the plain text of a scalar otherwise."""
    if is_json(media_type(media)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return scalar(value)


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def is_json(media: str) -> bool:
    return media == "application/json" or media.endswith("+json")


def cookie_pairs(spec: ParameterSpec, value: Any) -> list[str]:
    name = _encode_all(spec["name"])
    media = spec.get("contentType")
    if media:
        return [f"{name}={_encode_all(media_text(value, media))}"]
    if isinstance(value, dict) and spec["explode"]:
        return _flatten(value, True, _encode_all)
    if isinstance(value, list | tuple) and spec["explode"]:
        return [f"{name}={item}" for item in _flatten(value, True, _encode_all)]
    return [f"{name}={','.join(_flatten(value, False, _encode_all))}"]


def header_value(spec: ParameterSpec, value: Any) -> str | bytes:
    media = spec.get("contentType")
    plain = ",".join(_flatten(value, spec["explode"], lambda s: s)) if not media else ""
    text = media_text(value, media) if media else plain
    if any(c in text for c in "\r\n\0"):
        raise EncodingRefused(
            f"argument {spec['argument']!r} contains a line break, which cannot be sent in the "
            f"HTTP header {spec['name']!r}"
        )
    return text if text.isascii() else text.encode("utf-8")
