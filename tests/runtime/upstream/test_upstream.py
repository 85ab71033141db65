"""The upstream client: the exact HTTP request an API receives for a tool call, and its failures.

Most tests run against a real HTTP server on 127.0.0.1 that records each request as it arrived on
the wire (the raw request target, so percent-encoding is visible); parameter-style tables use
``httpx.MockTransport`` where only the URL matters.
"""

from __future__ import annotations

import asyncio
import base64
import socket
from typing import Any

import httpx
import pytest

from templates.runtime.catalog.model import OperationSpec, UpstreamInfo
from templates.runtime.upstream.client import (
    MAX_RESPONSE_BYTES,
    Upstream,
    UpstreamError,
    UpstreamResponse,
)
from tests.runtime.upstream_kit import (
    API_KEY,
    INFO,
    PASSWORD,
    TOKEN,
    USER,
    FakeApi,
    Make,
    call,
    op,
    param,
)

ANONYMOUS_HINT = (
    "it was sent without credentials; if the API needs them, set PET_HEADERS to the headers it "
    'expects, e.g. {"Authorization": "Bearer <token>"}'
)

# -- requests on the wire ---------------------------------------------------------------------


async def test_get_with_path_and_query(api: FakeApi, make: Make) -> None:
    spec = op("GET", "/pets/{petId}", [param("petId", "path"), param("fields")])
    response = await call(make, spec, {"petId": 42, "fields": "name"})
    [req] = api.requests
    assert (req.method, req.target) == ("GET", "/pets/42?fields=name")
    assert req.header("User-Agent") == "petstore-mcp/1.0"
    assert req.header("Accept") == "application/json"
    assert req.header("Host") == api.url.removeprefix("http://")
    assert req.header("Authorization") is None
    assert req.header("Cookie") is None
    assert req.body == b""
    assert response == UpstreamResponse(
        200,
        "OK",
        "application/json",
        b'{"ok":true}',
        f"{api.url}/pets/42?fields=name",
        auth_hint=ANONYMOUS_HINT,
    )


async def test_accept_defaults_to_any(api: FakeApi, make: Make) -> None:
    await call(make, op("DELETE", "/pets", media=""), {})
    assert api.requests[0].header("Accept") == "*/*"
    assert api.requests[0].method == "DELETE"


async def test_a_format_asked_in_the_query_is_accepted_too(api: FakeApi, make: Make) -> None:
    """Nautobot (Django REST framework) answers ``?format=csv`` with 406 Not Acceptable when the
    Accept header takes only the JSON the operation documents first."""
    spec = op("GET", "/dcim/devices/", [param("format"), param("limit")])
    await call(make, spec, {"format": "csv"})
    await call(make, spec, {"limit": 5})
    asked, plain = api.requests
    assert (asked.target, asked.header("Accept")) == (
        "/dcim/devices/?format=csv",
        "application/json, */*;q=0.1",
    )
    assert (plain.target, plain.header("Accept")) == ("/dcim/devices/?limit=5", "application/json")
    # OGC API's format (pygeoapi)
    await call(make, op("GET", "/collections/lakes/items", [param("f")]), {"f": "csv"})
    assert api.requests[2].header("Accept") == "application/json, */*;q=0.1"


@pytest.mark.parametrize(
    ("value", "target"),
    [
        ("a/b?c#d", "/files/a%2Fb%3Fc%23d/meta"),
        ("100%", "/files/100%25/meta"),
        ("%2F", "/files/%252F/meta"),
        ("café ünïcode", "/files/caf%C3%A9%20%C3%BCn%C3%AFcode/meta"),
        ("a;b=c,d", "/files/a%3Bb%3Dc%2Cd/meta"),
        ("x\r\nHost: evil", "/files/x%0D%0AHost%3A%20evil/meta"),
        ("file.txt", "/files/file.txt/meta"),
        ("a..b", "/files/a..b/meta"),
    ],
)
async def test_hostile_path_values_stay_in_their_segment(
    api: FakeApi, make: Make, value: str, target: str
) -> None:
    await call(make, op("GET", "/files/{name}/meta", [param("name", "path")]), {"name": value})
    assert api.requests[0].target == target


@pytest.mark.parametrize(
    "value", ["../admin", "..", ".", "..%2F..%2Fetc", "%2e%2e", "%252e%252e/x", "a\\..\\b"]
)
async def test_dot_segments_in_path_values_are_refused(
    api: FakeApi, make: Make, value: str
) -> None:
    # a server that decodes before routing would still climb out of the segment
    with pytest.raises(UpstreamError, match="argument 'name' is refused: as a path segment"):
        await call(make, op("GET", "/files/{name}/meta", [param("name", "path")]), {"name": value})
    assert api.requests == []


async def test_base_url_path_prefix_is_kept(api: FakeApi, make: Make) -> None:
    response = await call(make, op("GET", "/pets"), {}, environ={"PET_BASE_URL": api.url + "/v2/"})
    assert api.requests[0].target == "/v2/pets"
    assert response.url == f"{api.url}/v2/pets"


async def test_missing_required_path_parameter(make: Make) -> None:
    spec = op("GET", "/pets/{petId}", [param("petId", "path")])
    with pytest.raises(UpstreamError, match="missing required argument 'petId'"):
        await call(make, spec, {})
    with pytest.raises(UpstreamError, match="argument 'petId' is empty: a path segment needs a"):
        await call(make, spec, {"petId": ""})


async def test_missing_required_query_parameter(make: Make) -> None:
    spec = op("GET", "/pets", [param("q", required=True, argument="query")])
    with pytest.raises(UpstreamError, match="missing required argument 'query'"):
        await call(make, spec, {})


async def test_optional_values_none_or_absent_are_omitted(api: FakeApi, make: Make) -> None:
    spec = op(
        "GET", "/pets", [param("a"), param("b"), param("X-Trace", "header"), param("c", "cookie")]
    )
    await call(make, spec, {"a": None, "c": None})
    assert api.requests[0].target == "/pets"
    assert api.requests[0].header("X-Trace") is None
    assert api.requests[0].header("Cookie") is None


async def test_query_values_cannot_add_parameters_or_a_fragment(api: FakeApi, make: Make) -> None:
    spec = op("GET", "/search", [param("q"), param("flag"), param("n")])
    await call(make, spec, {"q": "a&admin=1#frag +x/y?", "flag": True, "n": 1.5})
    assert api.requests[0].target == "/search?q=a%26admin%3D1%23frag%20%2Bx%2Fy%3F&flag=true&n=1.5"


async def test_allow_reserved_keeps_reserved_characters_but_not_structure(
    api: FakeApi, make: Make
) -> None:
    spec = op("GET", "/search", [param("path", allow_reserved=True)])
    await call(make, spec, {"path": "/a/b:c,d?e&f=g#h [x]"})
    assert api.requests[0].target == "/search?path=/a/b:c,d?e%26f%3Dg%23h%20[x]"


async def test_header_parameters(api: FakeApi, make: Make) -> None:
    spec = op(
        "GET",
        "/pets",
        [
            param("X-Request-Id", "header", argument="request_id"),
            param("X-Tags", "header", argument="tags"),
            param("X-Filter", "header", argument="filter", explode=True),
            param("X-Flag", "header", argument="flag"),
            param("Accept", "header", argument="accept"),
            param("Authorization", "header", argument="auth"),
        ],
    )
    await call(
        make,
        spec,
        {
            "request_id": "abc",
            "tags": ["a", "b"],
            "filter": {"role": "admin", "n": 2},
            "flag": False,
            "accept": "text/evil",
            "auth": "Bearer forged",
        },
    )
    req = api.requests[0]
    assert req.header("X-Request-Id") == "abc"
    assert req.header("X-Tags") == "a,b"
    assert req.header("X-Filter") == "role=admin,n=2"
    assert req.header("X-Flag") == "false"
    assert req.header("Accept") == "application/json"
    assert req.header("Authorization") is None


async def test_unicode_header_value_is_sent_as_utf8(api: FakeApi, make: Make) -> None:
    await call(
        make, op("GET", "/pets", [param("X-Name", "header", argument="name")]), {"name": "Zoë"}
    )
    assert api.requests[0].header_bytes("X-Name") == "Zoë".encode()


@pytest.mark.parametrize("value", ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\x00b"])
async def test_header_values_with_line_breaks_are_refused(
    api: FakeApi, make: Make, value: str
) -> None:
    spec = op("GET", "/pets", [param("X-Note", "header", argument="note")])
    with pytest.raises(UpstreamError, match="argument 'note' contains a line break") as info:
        await call(make, spec, {"note": value})
    assert "X-Injected" not in str(info.value)
    assert api.requests == []


async def test_cookie_parameters(api: FakeApi, make: Make) -> None:
    spec = op(
        "GET",
        "/pets",
        [param("lang", "cookie"), param("ids", "cookie", explode=False), param("odd", "cookie")],
    )
    await call(make, spec, {"lang": "en", "ids": [1, 2], "odd": "a; b=c"})
    assert api.requests[0].header("Cookie") == "lang=en; ids=1,2; odd=a%3B%20b%3Dc"


# -- request bodies ---------------------------------------------------------------------------


async def test_json_body_from_one_argument(api: FakeApi, make: Make) -> None:
    spec = op(
        "POST",
        "/pets",
        body={"contentType": "application/json", "required": True, "argument": "body"},
    )
    await call(make, spec, {"body": {"name": "Rex", "tags": ["ü"], "ok": True, "n": None}})
    req = api.requests[0]
    assert req.method == "POST"
    assert req.header("Content-Type") == "application/json"
    assert req.body == '{"name":"Rex","tags":["ü"],"ok":true,"n":null}'.encode()
    assert req.header("Content-Length") == str(len(req.body))


async def test_json_body_from_flattened_properties_keeps_explicit_nulls(
    api: FakeApi, make: Make
) -> None:
    """A PATCH that clears a field sends its null (merge-patch: null removes the field)."""
    body = {
        "contentType": "application/merge-patch+json",
        "required": True,
        "properties": {"name": "name", "pet_type": "type", "notes": "notes", "unused": "unused"},
    }
    spec = op("PATCH", "/pets/{id}", [param("id", "path")], body=body)
    await call(make, spec, {"id": 1, "name": "Rex", "pet_type": "dog", "notes": None})
    req = api.requests[0]
    assert (req.method, req.target) == ("PATCH", "/pets/1")
    assert req.header("Content-Type") == "application/merge-patch+json"
    assert req.body == b'{"name":"Rex","type":"dog","notes":null}'


async def test_required_flattened_body_with_no_values_is_an_empty_object(
    api: FakeApi, make: Make
) -> None:
    spec = op(
        "POST",
        "/pets",
        body={"contentType": "application/json", "required": True, "properties": {"a": "a"}},
    )
    await call(make, spec, {})
    assert api.requests[0].body == b"{}"


async def test_optional_body_left_out(api: FakeApi, make: Make) -> None:
    spec = op(
        "POST",
        "/pets",
        body={"contentType": "application/json", "required": False, "argument": "body"},
    )
    await call(make, spec, {})
    assert api.requests[0].body == b""
    assert api.requests[0].header("Content-Type") is None


async def test_a_bodiless_request_refused_for_declaring_no_type_goes_again_declared_json(
    api: FakeApi, make: Make
) -> None:
    """Unleash's favourites (``POST /api/admin/projects/{id}/favorites``, no body documented)
    answer 415 "you didn't provide one" to a request without a Content-Type: it goes once more,
    declared JSON and empty, and that answer is the call's."""
    api.reply(415, b'{"name":"ContentTypeError"}', {"Content-Type": "application/json"})
    response = await call(make, op("POST", "/projects/p1/favorites"), {})
    first, second = api.requests
    assert (first.header("Content-Type"), first.body) == (None, b"")
    assert (second.method, second.target, second.body) == ("POST", "/projects/p1/favorites", b"")
    assert (second.header("Content-Type"), second.header("Content-Length")) == (
        "application/json",
        "0",
    )
    assert (response.status, response.body) == (200, b'{"ok":true}')


async def test_a_415_to_a_declared_request_is_the_answer(api: FakeApi, make: Make) -> None:
    """A request that declared its type (a body, or a required Content-Type) is not sent again:
    the API refused that type, and the 415 says so; nor is a bodiless one sent a third time."""
    body = {"contentType": "application/json", "required": True, "argument": "body"}
    api.reply(415)
    refused = await call(make, op("POST", "/pets", body=body), {"body": {"a": 1}})
    api.reply(415)
    api.reply(415)
    again = await call(make, op("DELETE", "/pets/1"), {})
    assert (refused.status, again.status) == (415, 415)
    assert [(r.method, r.header("Content-Type")) for r in api.requests] == [
        ("POST", "application/json"),
        ("DELETE", None),
        ("DELETE", "application/json"),
    ]


async def test_missing_required_body(make: Make) -> None:
    spec = op(
        "POST",
        "/pets",
        body={"contentType": "application/json", "required": True, "argument": "pet"},
    )
    with pytest.raises(UpstreamError, match="missing required argument 'pet'"):
        await call(make, spec, {})


async def test_form_urlencoded_body(api: FakeApi, make: Make) -> None:
    body = {
        "contentType": "application/x-www-form-urlencoded",
        "required": True,
        "properties": {"name": "name", "tags": "tags", "ok": "ok", "meta": "meta"},
    }
    await call(
        make,
        op("POST", "/pets", body=body),
        {"name": "R&x =ü", "tags": ["a", "b"], "ok": True, "meta": {"k": 1}},
    )
    req = api.requests[0]
    assert req.header("Content-Type") == "application/x-www-form-urlencoded"
    # without an Encoding Object OpenAPI's defaults hold: form style, exploded (an object's keys
    # are spread, an array repeats its name)
    assert req.body == b"name=R%26x+%3D%C3%BC&tags=a&tags=b&ok=true&k=1"


async def test_form_body_that_is_a_string_is_the_form_itself(api: FakeApi, make: Make) -> None:
    """A form body whose schema is a string is the encoded form: its pairs and escapes go as
    given (they had been percent-encoded whole, one key with no value); a space and a letter a
    form cannot carry are encoded."""
    body = {"contentType": "application/x-www-form-urlencoded", "required": True, "argument": "b"}
    form = "grant_type=client_credentials&scope=read write&note=a%26b&name=Zoë"
    await call(make, op("POST", "/token", body=body), {"b": form})
    req = api.requests[0]
    assert req.header("Content-Type") == "application/x-www-form-urlencoded"
    assert req.body == b"grant_type=client_credentials&scope=read+write&note=a%26b&name=Zo%C3%AB"


async def test_multipart_body(api: FakeApi, make: Make) -> None:
    body = {
        "contentType": "multipart/form-data",
        "required": True,
        "properties": {"note": "note", "n": "n", "x": 'we"ird'},
    }
    await call(make, op("POST", "/upload", body=body), {"note": "héllo\r\nworld", "n": 3, "x": "y"})
    req = api.requests[0]
    content_type = req.header("Content-Type") or ""
    assert content_type.startswith("multipart/form-data; boundary=")
    boundary = content_type.split("boundary=")[1]
    assert (
        req.body
        == (
            f'--{boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\n'
            "héllo\r\nworld\r\n"
            f'--{boundary}\r\nContent-Disposition: form-data; name="n"\r\n\r\n3\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="we%22ird"\r\n\r\ny\r\n'
            f"--{boundary}--\r\n"
        ).encode()
    )


async def test_text_body(api: FakeApi, make: Make) -> None:
    spec = op(
        "PUT",
        "/notes/1",
        body={"contentType": "text/plain; charset=utf-8", "required": True, "argument": "text"},
    )
    await call(make, spec, {"text": "ünïcode\nline"})
    assert api.requests[0].header("Content-Type") == "text/plain; charset=utf-8"
    assert api.requests[0].body == "ünïcode\nline".encode()


async def test_octet_stream_body_is_decoded_from_base64(api: FakeApi, make: Make) -> None:
    raw = bytes(range(256))
    spec = op(
        "PUT",
        "/blob",
        body={"contentType": "application/octet-stream", "required": True, "argument": "data"},
    )
    await call(make, spec, {"data": base64.b64encode(raw).decode()})
    assert api.requests[0].header("Content-Type") == "application/octet-stream"
    assert api.requests[0].body == raw


async def test_octet_stream_accepts_urlsafe_base64_without_padding(
    api: FakeApi, make: Make
) -> None:
    raw = b"\xfb\xff\xfe"
    spec = op(
        "PUT", "/blob", body={"contentType": "image/png", "required": True, "argument": "data"}
    )
    await call(make, spec, {"data": base64.urlsafe_b64encode(raw).decode().rstrip("=")})
    assert api.requests[0].body == raw


async def test_invalid_base64_is_refused(api: FakeApi, make: Make) -> None:
    spec = op(
        "PUT",
        "/blob",
        body={"contentType": "application/octet-stream", "required": True, "argument": "data"},
    )
    with pytest.raises(UpstreamError, match="argument 'data' is not valid base64"):
        await call(make, spec, {"data": "not base64!!"})
    assert api.requests == []


# -- credentials ------------------------------------------------------------------------------


async def test_api_key_in_header(api: FakeApi, make: Make) -> None:
    await call(make, op(security=[["headerKey"]]), {}, environ={"PET_API_KEY": API_KEY})
    assert api.requests[0].header("X-API-Key") == API_KEY


async def test_api_key_in_query_is_stripped_from_the_returned_url(api: FakeApi, make: Make) -> None:
    spec = op("GET", "/pets", [param("limit")], security=[["queryKey"]])
    response = await call(make, spec, {"limit": 5}, environ={"PET_QUERY_KEY": "a b&c"})
    assert api.requests[0].target == "/pets?limit=5&api_key=a%20b%26c"
    assert response.url == f"{api.url}/pets?limit=5"


async def test_api_key_in_cookie_with_cookie_parameters(api: FakeApi, make: Make) -> None:
    spec = op("GET", "/pets", [param("lang", "cookie")], security=[["cookieKey"]])
    await call(make, spec, {"lang": "en"}, environ={"PET_SID": API_KEY})
    assert api.requests[0].header("Cookie") == f"sid={API_KEY}; lang=en"


async def test_a_key_that_names_the_user_is_sent_and_not_masked_in_the_answer(
    api: FakeApi, make: Make
) -> None:
    """slurmrestd takes the user's name beside the user's token: the name is no secret, and the
    jobs the answer lists are the user's own, so their owner stays readable; the token is masked."""
    api.reply(200, f'{{"user_name":"operator","token":"{API_KEY}"}}'.encode())
    environ = {"PET_USER_NAME_KEY": "operator", "PET_API_KEY": API_KEY}
    response = await call(make, op(security=[["userName", "headerKey"]]), {}, environ=environ)
    request = api.requests[0]
    assert (request.header("X-User-Name"), request.header("X-API-Key")) == ("operator", API_KEY)
    assert response.body == b'{"user_name":"operator","token":"***"}'


async def test_a_key_that_names_the_user_may_hold_no_line_break(make: Make) -> None:
    with pytest.raises(UpstreamError) as info:
        await call(
            make, op(security=[["userName"]]), {}, environ={"PET_USER_NAME_KEY": "op\r\nX: 1"}
        )
    assert str(info.value) == "the environment variable PET_USER_NAME_KEY contains a line break"


async def test_bearer(api: FakeApi, make: Make) -> None:
    await call(make, op(security=[["bearer"]]), {}, environ={"PET_TOKEN": f"  {TOKEN}\n"})
    assert api.requests[0].header("Authorization") == f"Bearer {TOKEN}"


async def test_basic(api: FakeApi, make: Make) -> None:
    await call(
        make, op(security=[["basic"]]), {}, environ={"PET_USER": USER, "PET_PASSWORD": PASSWORD}
    )
    expected = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    assert api.requests[0].header("Authorization") == f"Basic {expected}"


async def test_basic_with_a_password_set_to_nothing_sends_the_user_name_alone_and_masks_it(
    api: FakeApi, make: Make
) -> None:
    """Stripe and Karrio take an API key as the user name with no password (``curl -u key:``):
    the password variable set to nothing says so, and the key is then the secret."""
    api.reply(200, f'{{"echo":"{API_KEY}"}}'.encode())
    environ = {"PET_USER": API_KEY, "PET_PASSWORD": ""}
    response = await call(make, op(security=[["basic"]]), {}, environ=environ)
    expected = base64.b64encode(f"{API_KEY}:".encode()).decode()
    assert api.requests[0].header("Authorization") == f"Basic {expected}"
    assert response.body == b'{"echo":"***"}'


async def test_first_satisfiable_alternative_wins(api: FakeApi, make: Make) -> None:
    security = [["bearer"], ["headerKey", "cookieKey"], ["basic"]]
    env = {"PET_API_KEY": API_KEY, "PET_SID": "s1", "PET_USER": USER, "PET_PASSWORD": PASSWORD}
    await call(make, op(security=security), {}, environ=env)
    req = api.requests[0]
    assert req.header("X-API-Key") == API_KEY
    assert req.header("Cookie") == "sid=s1"
    assert req.header("Authorization") is None


async def test_a_session_cookie_alone_goes_last(api: FakeApi, make: Make) -> None:
    # drf-spectacular lists Django's session cookie first; it refuses writes without a CSRF
    # token, and Mayan's basic credentials set beside it were not sent
    security = [["cookieKey"], ["basic"]]
    env = {"PET_SID": "s1", "PET_USER": USER, "PET_PASSWORD": PASSWORD}
    await call(make, op("POST", "/pets", security=security), {}, environ=env)
    req = api.requests[0]
    assert req.header("Cookie") is None
    assert (
        req.header("Authorization")
        == "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    )
    # alone, it is sent
    await call(make, op("POST", "/pets", security=security), {}, environ={"PET_SID": "s1"})
    assert api.requests[1].header("Cookie") == "sid=s1"


async def test_anonymous_alternative(api: FakeApi, make: Make) -> None:
    await call(make, op(security=[["bearer"], []]), {})
    assert api.requests[0].header("Authorization") is None
    await call(make, op(security=[["bearer"], []]), {}, environ={"PET_TOKEN": TOKEN})
    assert api.requests[1].header("Authorization") == f"Bearer {TOKEN}"


async def test_unsatisfied_security_sends_the_call_without_credentials(
    api: FakeApi, make: Make
) -> None:
    """Many APIs serve public reads anonymously: the API decides, and a 401 names the variables."""
    api.reply(401, b'{"message":"Requires authentication"}', {"Content-Type": "application/json"})
    spec = op(security=[["bearer"], ["basic"], ["headerKey", "queryKey"]])
    response = await call(
        make, spec, {}, environ={"PET_USER": USER, "PET_API_KEY": API_KEY, "PET_TOKEN": " "}
    )
    [req] = api.requests
    assert (req.target, req.header("Authorization"), req.header("X-API-Key")) == (
        "/pets",
        None,
        None,
    )
    assert response.status == 401
    # what is still to set of an alternative set in part (Glances' user name without its password)
    assert response.auth_hint == (
        "it was sent without credentials; to send them, set the environment variable PET_TOKEN, "
        "or set PET_PASSWORD (set to nothing, if the API takes the user name alone), or set "
        "PET_QUERY_KEY"
    )


async def test_a_sign_in_that_may_go_without_credentials_is_told_nothing_of_them(
    api: FakeApi, make: Make
) -> None:
    # Signal K's login says nothing of security: any scheme or none; its 401 is about the
    # user name and password it was given, not about a token to set
    api.reply(401, b'{"message":"Invalid username/password"}')
    login = op("POST", "/signalk/v1/auth/login", security=[["bearer"], ["basic"], []])
    assert (await call(make, login, {})).auth_hint == ""
    api.reply(401, b"{}")
    other = op("POST", "/signalk/v1/auth/logout", security=[["bearer"], ["basic"], []])
    assert (await call(make, other, {})).auth_hint.startswith(
        "it was sent without credentials; to send them, set the environment variable PET_TOKEN"
    )


async def test_unknown_scheme_alternative_is_skipped(api: FakeApi, make: Make) -> None:
    await call(make, op(security=[["mutualTLS"], ["bearer"]]), {}, environ={"PET_TOKEN": TOKEN})
    assert api.requests[0].header("Authorization") == f"Bearer {TOKEN}"
    # nothing this server can supply: the call goes out as it is
    response = await call(make, op(security=[["mutualTLS"]]), {})
    assert api.requests[1].header("Authorization") is None
    assert response.auth_hint == ANONYMOUS_HINT


async def test_credential_with_line_break_is_refused_without_showing_it(make: Make) -> None:
    with pytest.raises(UpstreamError) as info:
        await call(make, op(security=[["bearer"]]), {}, environ={"PET_TOKEN": "abc\r\nX: 1"})
    assert str(info.value) == "the environment variable PET_TOKEN contains a line break"


# -- responses and failures -------------------------------------------------------------------


async def test_response_fields(api: FakeApi, make: Make) -> None:
    api.reply(404, b"<h1>nope</h1>", {"Content-Type": "text/html; charset=utf-8"})
    response = await call(make, op(), {})
    assert response == UpstreamResponse(
        404,
        "Not Found",
        "text/html; charset=utf-8",
        b"<h1>nope</h1>",
        f"{api.url}/pets",
        auth_hint=ANONYMOUS_HINT,
    )


async def test_cookies_set_by_the_upstream_are_not_sent_back(api: FakeApi, make: Make) -> None:
    api.reply(200, b"{}", {"Set-Cookie": "session=abc; Path=/"})
    upstream = make({"op": op()})
    await upstream.call("op", {})
    await upstream.call("op", {})
    assert api.requests[1].header("Cookie") is None


async def test_one_connection_is_reused(api: FakeApi, make: Make) -> None:
    upstream = make({"op": op()})
    for _ in range(3):
        await upstream.call("op", {})
    assert len({r.client_port for r in api.requests}) == 1


async def test_concurrent_calls(api: FakeApi, make: Make) -> None:
    upstream = make({"op": op("GET", "/pets/{id}", [param("id", "path")])})
    responses = await asyncio.gather(*(upstream.call("op", {"id": i}) for i in range(10)))
    assert [r.status for r in responses] == [200] * 10
    assert sorted(r.target for r in api.requests) == sorted(f"/pets/{i}" for i in range(10))


async def test_timeout(api: FakeApi, make: Make) -> None:
    api.slow = True
    with pytest.raises(UpstreamError) as info:
        await call(make, op(), {}, environ={"PET_TIMEOUT": "0.2"})
    # a GET is retried twice (PET_RETRIES defaults to 2)
    assert str(info.value) == "upstream timed out after 0.2 s (3 attempts)"


@pytest.mark.parametrize("value", ["soon", "0", "-1", "inf", "nan"])
async def test_invalid_timeout_setting(make: Make, value: str) -> None:
    with pytest.raises(UpstreamError, match="PET_TIMEOUT must be a positive number of seconds"):
        await call(make, op(), {}, environ={"PET_TIMEOUT": value})


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_connection_refused(make: Make) -> None:
    port = _closed_port()
    spec = op(security=[["queryKey"]])
    with pytest.raises(UpstreamError) as info:
        await call(
            make,
            spec,
            {},
            environ={"PET_BASE_URL": f"http://127.0.0.1:{port}", "PET_QUERY_KEY": API_KEY},
        )
    assert str(info.value) == (
        f"could not reach http://127.0.0.1:{port}: connection refused (3 attempts)"
    )


@pytest.mark.parametrize(
    ("base", "shown"),
    [
        ("ftp://files.example.com", "'ftp://files.example.com'"),
        ("/v1", "a relative URL"),
        ("file:///etc/passwd", "a relative URL"),
        ("api.example.com", "a relative URL"),
    ],
)
async def test_base_url_must_be_http(make: Make, base: str, shown: str) -> None:
    with pytest.raises(UpstreamError) as info:
        await call(make, op(), {}, environ={"PET_BASE_URL": base})
    assert str(info.value) == (
        f"the upstream base URL is {shown}, not an http(s) URL; set PET_BASE_URL to the "
        "API's base URL (for example https://api.example.com)"
    )


async def test_base_url_falls_back_to_the_catalog(api: FakeApi, make: Make) -> None:
    info: UpstreamInfo = {**INFO, "baseUrl": api.url + "/api"}  # type: ignore[typeddict-item]
    await call(make, op(), {}, environ={"PET_BASE_URL": ""}, info=info)
    assert api.requests[0].target == "/api/pets"


async def test_base_url_credentials_are_not_shown(make: Make) -> None:
    port = _closed_port()
    with pytest.raises(UpstreamError) as info:
        await call(make, op(), {}, environ={"PET_BASE_URL": f"http://user:S3CRET@127.0.0.1:{port}"})
    assert "S3CRET" not in str(info.value)


async def test_unknown_operation(make: Make) -> None:
    with pytest.raises(UpstreamError, match="unknown operation 'nope'"):
        await make({"op": op()}).call("nope", {})


# -- MockTransport: parameter-style tables ----------------------------------------------------


async def sent(spec: OperationSpec, arguments: dict[str, Any], make: Make) -> httpx.Request:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    await call(make, spec, arguments, transport=httpx.MockTransport(handler))
    return seen[0]


ARRAY = [3, 4, 5]
OBJECT = {"role": "admin", "firstName": "Alex"}


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("simple", False, 5, "/users/5"),
        ("simple", False, ARRAY, "/users/3,4,5"),
        ("simple", False, OBJECT, "/users/role,admin,firstName,Alex"),
        ("simple", True, OBJECT, "/users/role=admin,firstName=Alex"),
        ("simple", False, True, "/users/true"),
        ("label", False, 5, "/users/.5"),
        ("label", False, ARRAY, "/users/.3,4,5"),
        ("label", True, ARRAY, "/users/.3.4.5"),
        ("label", False, OBJECT, "/users/.role,admin,firstName,Alex"),
        ("label", True, OBJECT, "/users/.role=admin.firstName=Alex"),
        ("label", False, "a.b", "/users/.a.b"),
        ("matrix", False, 5, "/users/;id=5"),
        ("matrix", False, ARRAY, "/users/;id=3,4,5"),
        ("matrix", True, ARRAY, "/users/;id=3;id=4;id=5"),
        ("matrix", False, OBJECT, "/users/;id=role,admin,firstName,Alex"),
        ("matrix", True, OBJECT, "/users/;role=admin;firstName=Alex"),
        ("matrix", False, "a/b;c", "/users/;id=a%2Fb%3Bc"),
    ],
)
async def test_path_styles(
    make: Make, style: str, explode: bool, value: Any, expected: str
) -> None:
    spec = op("GET", "/users/{id}", [param("id", "path", style=style, explode=explode)])
    request = await sent(spec, {"id": value}, make)
    assert request.url.raw_path.decode() == expected


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("form", True, 5, "id=5"),
        ("form", True, ARRAY, "id=3&id=4&id=5"),
        ("form", True, OBJECT, "role=admin&firstName=Alex"),
        ("form", False, ARRAY, "id=3,4,5"),
        ("form", False, OBJECT, "id=role,admin,firstName,Alex"),
        # an empty list or object is undefined (RFC 6570 2.3, OpenAPI 3.1.1's "undefined"
        # column): nothing is sent; an empty string is a value (Airflow read update_mask= as [""])
        ("form", False, [], ""),
        ("form", True, [], ""),
        ("form", False, {}, ""),
        ("spaceDelimited", False, [], ""),
        ("pipeDelimited", False, [], ""),
        ("deepObject", True, {}, ""),
        ("form", True, "", "id="),
        ("form", False, [""], "id="),
        ("form", False, ["a,b", "c"], "id=a%2Cb,c"),
        ("spaceDelimited", False, ARRAY, "id=3%204%205"),
        ("spaceDelimited", False, OBJECT, "id=role%20admin%20firstName%20Alex"),
        ("spaceDelimited", True, ARRAY, "id=3&id=4&id=5"),
        ("pipeDelimited", False, ARRAY, "id=3|4|5"),
        ("pipeDelimited", False, ["a|b", "c"], "id=a%7Cb|c"),
        ("pipeDelimited", True, ARRAY, "id=3&id=4&id=5"),
        ("deepObject", True, OBJECT, "id[role]=admin&id[firstName]=Alex"),
        ("deepObject", True, {"a": {"b": 1}, "t": [1, 2]}, "id[a][b]=1&id[t][0]=1&id[t][1]=2"),
        ("deepObject", True, {"k]&x=": "v&"}, "id[k%5D%26x%3D]=v%26"),
        # a null inside is written empty, as qs writes it (Strapi's filters[title][$eq]=): left
        # out, the condition would be gone and the query match more than asked
        ("deepObject", True, {"t": {"$eq": None}}, "id[t][%24eq]="),
        ("deepObject", True, {"t": {"$in": ["Z", None]}}, "id[t][%24in][0]=Z&id[t][%24in][1]="),
    ],
)
async def test_query_styles(
    make: Make, style: str, explode: bool, value: Any, expected: str
) -> None:
    spec = op("GET", "/users", [param("id", style=style, explode=explode)])
    request = await sent(spec, {"id": value}, make)
    assert request.url.query.decode() == expected


async def test_an_empty_list_inside_a_deep_object_is_refused(make: Make) -> None:
    # qs leaves it out, and Strapi's filters[title][$in]=[] would then match every entry
    spec = op("GET", "/articles", [param("filters", style="deepObject", explode=True)])
    with pytest.raises(UpstreamError) as refused:
        await sent(spec, {"filters": {"title": {"$in": []}}}, make)
    assert str(refused.value) == (
        "filters[title][$in] is an empty list, which a query string cannot carry: leave it out, "
        "or give at least one value"
    )


async def test_nested_values_in_query_are_json(make: Make) -> None:
    spec = op("GET", "/users", [param("id", explode=False)])
    request = await sent(spec, {"id": [{"a": 1}]}, make)
    assert request.url.query.decode() == "id=%7B%22a%22%3A1%7D"


async def test_a_success_larger_than_the_cap_is_its_start_and_a_failure_a_failure(
    make: Make,
) -> None:
    status = 200

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, content=b"x" * MAX_RESPONSE_BYTES + b"y")

    # the API answered: what is read is its answer, marked as cut short (Nautobot's 18 MB schema)
    response = await call(make, op(), {}, transport=httpx.MockTransport(handler))
    assert (response.status, response.body, response.cut_short) == (
        200,
        b"x" * MAX_RESPONSE_BYTES,
        True,
    )
    status = 500
    with pytest.raises(
        UpstreamError, match="upstream answered 500 with a body larger than 10 MiB; not read"
    ):
        await call(make, op(), {}, transport=httpx.MockTransport(handler))


async def test_response_at_the_cap_is_read(make: Make) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"x" * MAX_RESPONSE_BYTES)

    response = await call(make, op(), {}, transport=httpx.MockTransport(handler))
    assert len(response.body) == MAX_RESPONSE_BYTES


async def test_transport_errors_do_not_leak_secrets(make: Make) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.RemoteProtocolError(f"bad response to {request.url}", request=request)

    with pytest.raises(UpstreamError) as info:
        await call(
            make,
            op(security=[["queryKey"]]),
            {},
            transport=httpx.MockTransport(handler),
            environ={"PET_QUERY_KEY": API_KEY},
        )
    message = str(info.value)
    assert message.startswith("request to http://127.0.0.1:")
    assert API_KEY not in message
    assert "***" in message


async def test_unknown_status_has_a_reason(make: Make) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(599, content=b"")

    response = await call(make, op(), {}, transport=httpx.MockTransport(handler))
    assert (response.status, response.reason) == (599, "")


async def test_aclose_is_idempotent_and_the_client_is_rebuilt(api: FakeApi, make: Make) -> None:
    upstream = make({"op": op()})
    await upstream.aclose()
    await upstream.call("op", {})
    await upstream.aclose()
    await upstream.aclose()
    await upstream.call("op", {})
    assert len(api.requests) == 2


def test_constructing_does_not_read_the_environment() -> None:
    Upstream(INFO, {}, environ={"PET_BASE_URL": "ftp://x", "PET_TIMEOUT": "x"}, user_agent="t")


async def test_a_partial_optional_body_is_refused_before_anything_is_sent(
    api: FakeApi, make: Make
) -> None:
    body = {
        "contentType": "application/json",
        "required": False,
        "properties": {"to": "to", "text_arg": "text", "media": "media"},
        "requiredProperties": ["to", "text"],
    }
    spec = op("POST", "/messages", body=body)
    with pytest.raises(UpstreamError) as info:
        await call(make, spec, {"media": "x"})
    assert str(info.value) == (
        "the request body is sent as a whole: once any of its fields is given, 'to', 'text_arg' "
        "must be given too"
    )
    assert api.requests == []
    await call(make, spec, {})
    assert api.requests[0].body == b""
