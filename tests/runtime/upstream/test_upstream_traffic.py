"""Real traffic: redirects, extra headers, content codings and anonymous calls, on the wire.

Each test runs the upstream client against the recording server on 127.0.0.1 (two of them where a
redirect crosses origins) and asserts the exact requests the API received and what came back.
"""

from __future__ import annotations

import base64
import gzip
import json
import zlib

import brotli
import httpx
import pytest
import zstandard

from templates.runtime.catalog.model import UpstreamInfo
from templates.runtime.typed_client import NULL, ApiClient, ApiError
from templates.runtime.upstream.client import MAX_REDIRECTS, MAX_RESPONSE_BYTES, UpstreamError
from templates.runtime.upstream.decoding import accept_encoding
from tests.runtime.upstream_kit import API_KEY, INFO, TOKEN, FakeApi, Make, call, fake_api, op

JSON = {"Content-Type": "application/json"}
# security: bearer token, header key and query key, all set
SECURE = op(security=[["bearer", "headerKey", "queryKey"]])
CREDENTIALS = {"PET_TOKEN": TOKEN, "PET_API_KEY": API_KEY, "PET_QUERY_KEY": "q-S3CRET-key"}


# -- redirects --------------------------------------------------------------------------------


async def test_get_redirect_on_the_same_origin_is_followed_with_credentials(
    api: FakeApi, make: Make
) -> None:
    api.reply(302, b"", {"Location": "/v1/pets"})
    api.reply(200, b'{"ok":1}', JSON)
    response = await call(make, SECURE, {}, environ=CREDENTIALS)
    first, second = api.requests
    assert (first.target, second.target) == (
        "/pets?api_key=q-S3CRET-key",
        "/v1/pets?api_key=q-S3CRET-key",
    )
    assert second.header("Authorization") == f"Bearer {TOKEN}"
    assert second.header("X-API-Key") == API_KEY
    assert (response.status, response.body, response.url) == (
        200,
        b'{"ok":1}',
        f"{api.url}/v1/pets",
    )


async def test_credentials_never_follow_a_redirect_to_another_origin(
    api: FakeApi, make: Make
) -> None:
    environ = {**CREDENTIALS, "PET_HEADERS": json.dumps({"X-Session": "s3ss10n-S3CRET"})}
    with fake_api() as other:
        api.reply(307, b"", {"Location": f"{other.url}/cdn/pets?x=1"})
        response = await call(make, SECURE, {}, environ=environ)
        [there] = other.requests
    [here] = api.requests
    assert here.header("X-Session") == "s3ss10n-S3CRET"
    assert there.target == "/cdn/pets?x=1"
    for name in ("Authorization", "X-API-Key", "X-Session", "Cookie"):
        assert there.header(name) is None, name
    assert there.header("Accept") == "application/json"
    assert (response.status, response.url) == (200, f"{other.url}/cdn/pets?x=1")


async def test_a_post_is_not_resent_to_a_redirect_target(api: FakeApi, make: Make) -> None:
    api.reply(307, b"", {"Location": "/elsewhere"})
    body = {"contentType": "application/json", "required": True, "argument": "body"}
    response = await call(make, op("POST", "/pets", body=body), {"body": {"name": "Rex"}})
    assert [r.method for r in api.requests] == ["POST"]
    assert (response.status, response.method, response.location) == (
        307,
        "POST",
        f"{api.url}/elsewhere",
    )
    assert response.not_followed == (
        "only GET and HEAD requests follow redirects; the POST was not resent"
    )


async def test_see_other_after_a_post_fetches_the_result_with_a_get(
    api: FakeApi, make: Make
) -> None:
    api.reply(303, b"", {"Location": "/pets/7"})
    api.reply(200, b'{"id":7}', JSON)
    body = {"contentType": "application/json", "required": True, "argument": "body"}
    response = await call(make, op("POST", "/pets", body=body), {"body": {"name": "Rex"}})
    post, get = api.requests
    assert (post.method, get.method, get.target, get.body) == ("POST", "GET", "/pets/7", b"")
    assert get.header("Content-Type") is None
    assert (response.status, response.method, response.body) == (200, "POST", b'{"id":7}')


async def test_what_a_followed_redirect_led_to_says_it_was_followed(
    api: FakeApi, make: Make
) -> None:
    # LNbits's short URLs: GET /t/{id} answers 307 to what was shortened
    api.reply(307, b"", {"Location": "/api/v1/wallet"})
    api.reply(401, b'{"detail":"No Api Key provided."}', JSON)
    response = await call(make, op(), {})
    assert [r.target for r in api.requests] == ["/pets", "/api/v1/wallet"]
    assert (response.status, response.followed) == (
        401,
        f"a 307 redirect to {api.url}/api/v1/wallet",
    )
    api.requests.clear()
    # a target this machine cannot reach: the failure names the redirect it followed
    api.reply(302, b"", {"Location": "/b"})
    api.reply(307, b"", {"Location": "http://127.0.0.1:9/x?y=1"})
    with pytest.raises(UpstreamError) as failed:
        await call(make, op(), {}, environ={"PET_RETRIES": "0"})
    assert str(failed.value).startswith(
        "the API answered with 2 redirects, the last a 307 redirect to http://127.0.0.1:9/x?y=1; "
        "following it: could not reach http://127.0.0.1:9"
    )


async def test_redirect_loops_and_long_chains_stop(api: FakeApi, make: Make) -> None:
    api.reply(302, b"", {"Location": "/b"})
    api.reply(302, b"", {"Location": "/pets"})
    response = await call(make, op(), {})
    assert [r.target for r in api.requests] == ["/pets", "/b"]
    assert response.not_followed == "it leads back to an address already visited"
    api.requests.clear()
    for hop in range(MAX_REDIRECTS + 1):
        api.reply(301, b"", {"Location": f"/hop{hop}"})
    response = await call(make, op(), {})
    assert len(api.requests) == MAX_REDIRECTS + 1
    assert (response.status, response.location) == (301, f"{api.url}/hop{MAX_REDIRECTS}")
    assert response.not_followed == f"it is the {MAX_REDIRECTS + 1}th redirect in a row"


async def test_a_public_api_cannot_redirect_a_call_to_a_private_address(make: Make) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(302, headers={"Location": "http://169.254.169.254/latest/meta-data"})

    response = await call(
        make,
        op(),
        {},
        environ={"PET_BASE_URL": "https://api.example.com"},
        transport=httpx.MockTransport(handler),
    )
    assert seen == ["https://api.example.com/pets"]
    assert response.location == "http://169.254.169.254/latest/meta-data"
    assert response.not_followed == "it points to a private or loopback address"


# -- extra headers and calls without credentials ----------------------------------------------


async def test_extra_headers_go_with_every_call_and_replace_same_named_ones(
    api: FakeApi, make: Make
) -> None:
    headers = {"Authorization": "token gh0-S3CRET-token", "Accept": "application/vnd.x+json"}
    environ = {"PET_HEADERS": json.dumps(headers), "PET_TOKEN": TOKEN}
    await call(make, op(security=[["bearer"]]), {}, environ=environ)
    [req] = api.requests
    assert req.header("Authorization") == "token gh0-S3CRET-token"
    assert req.header("Accept") == "application/vnd.x+json"


async def test_extra_header_values_are_masked_in_what_the_api_echoes(
    api: FakeApi, make: Make
) -> None:
    headers = {
        "Authorization": "token gh0-S3CRET-token",
        "X-Api-Version": "2022-11-28",
        "X-Trace": "a1B2c3D4e5F6g7H8i9J0k1L2",
    }
    echo = json.dumps({"headers": headers, "raw": "gh0-S3CRET-token", "since": "2022-11-28"})
    api.reply(200, echo.encode(), JSON)
    response = await call(make, op(), {}, environ={"PET_HEADERS": json.dumps(headers)})
    assert json.loads(response.body) == {
        "headers": {"Authorization": "***", "X-Api-Version": "2022-11-28", "X-Trace": "***"},
        "raw": "***",
        "since": "2022-11-28",
    }


async def test_configured_headers_come_from_the_catalog(api: FakeApi, make: Make) -> None:
    info: UpstreamInfo = {**INFO, "headers": {"X-Client": "mcp", "Accept": "text/csv"}}
    environ = {"PET_HEADERS": '{"accept": "application/xml"}'}
    await make({"op": op()}, environ, info=info).call("op", {})
    [req] = api.requests
    assert (req.header("X-Client"), req.header("Accept")) == ("mcp", "application/xml")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("token abc", "PET_HEADERS must be a JSON object of header names and values, e.g. "),
        ('["Authorization"]', "PET_HEADERS must be a JSON object of header names and values"),
        ('{"X-Key": 42}', "PET_HEADERS: the value of header 'X-Key' must be a string"),
        ('{"Bad Name": "x"}', "PET_HEADERS: 'Bad Name' is not a valid header name"),
        ('{"Host": "evil.example"}', "PET_HEADERS: the header Host is set by the server itself"),
        (
            '{"X-Key": "a\\r\\nX-Injected: 1"}',
            "PET_HEADERS: the value of header X-Key must be printable ASCII on one line",
        ),
    ],
)
async def test_unusable_extra_headers_are_named_not_shown(
    api: FakeApi, make: Make, value: str, message: str
) -> None:
    with pytest.raises(UpstreamError) as info:
        await call(make, op(), {}, environ={"PET_HEADERS": value})
    assert str(info.value).startswith(message)
    assert "X-Injected" not in str(info.value)
    assert api.requests == []


async def test_a_401_without_credentials_knows_which_variables_to_set(
    api: FakeApi, make: Make
) -> None:
    api.reply(401, b"{}", JSON)
    response = await call(make, op(security=[["bearer"]]), {})
    assert api.requests[0].header("Authorization") is None
    assert response.auth_hint == (
        "it was sent without credentials; to send them, set the environment variable PET_TOKEN"
    )
    api.reply(401, b"{}", JSON)
    response = await call(make, op(security=[["bearer"]]), {}, environ={"PET_TOKEN": TOKEN})
    assert (response.status, response.auth_hint) == (
        401,
        "the API did not accept the credentials of PET_TOKEN",
    )
    # a 403 to credentials sent: they may be right but not allowed this
    api.reply(403, b"{}", JSON)
    response = await call(make, op(security=[["bearer"]]), {}, environ={"PET_TOKEN": TOKEN})
    assert response.auth_hint == (
        "the API refused this to the credentials of PET_TOKEN: they may be invalid or lack a permission"
    )


async def test_a_403_to_credentials_accepted_before_is_about_the_call(
    api: FakeApi, make: Make
) -> None:
    # n8n refuses what its licence leaves out, Airflow what its settings do, with a 403 to an API
    # key it accepts for everything else: the key is not what to change
    upstream = make({"op": op(security=[["bearer"]])}, environ={"PET_TOKEN": TOKEN})
    api.reply(403, b'{"message":"Your license does not allow for feat:variables."}', JSON)
    first = await upstream.call("op", {})
    assert first.auth_hint == (
        "the API refused this to the credentials of PET_TOKEN: they may be invalid or lack a permission"
    )
    api.reply(200, b"[]", JSON)
    assert (await upstream.call("op", {})).status == 200
    api.reply(403, b'{"message":"Your license does not allow for feat:variables."}', JSON)
    again = await upstream.call("op", {})
    assert again.auth_hint == (
        "the API accepts the credentials of PET_TOKEN for other calls and refused them this one: "
        "a permission they lack, or what the API's words above say"
    )
    # a 401 too: LiteLLM's for a pass-through route whose own upstream credential it lacks
    api.reply(401, b'{"error":"No Anthropic credential is configured on this proxy"}', JSON)
    assert (await upstream.call("op", {})).auth_hint == (
        "the API accepts the credentials of PET_TOKEN for other calls and did not for this one: "
        "what its words above say, or they were revoked since"
    )


async def test_a_refusal_of_the_headers_set_says_they_were_sent(api: FakeApi, make: Make) -> None:
    # Phoenix: a system key in PHOENIX_HEADERS lacks the admin role some calls need
    headers = json.dumps({"Authorization": "Bearer sys-key"})
    api.reply(403, b'{"detail":"Only admin or system users can perform this action."}', JSON)
    response = await call(make, op(), {}, environ={"PET_HEADERS": headers})
    assert api.requests[0].header("Authorization") == "Bearer sys-key"
    assert response.auth_hint == (
        "the API refused this to the credentials of PET_HEADERS: they may be invalid or lack a permission"
    )
    api.reply(401, b"{}", JSON)
    response = await call(make, op(security=[["bearer"]]), {}, environ={"PET_HEADERS": headers})
    assert response.auth_hint == (
        "the API did not accept the credentials of PET_HEADERS; to send others, set PET_TOKEN"
    )


async def test_a_bare_key_refused_in_the_authorization_header_says_how_it_went(
    api: FakeApi, make: Make
) -> None:
    """An apiKey scheme in Authorization (438 of the 2,112 APIs.guru documents with schemes)
    sends the variable as the whole header: Unleash wants the bare key, Directus a "Bearer" before
    it, and reads a bare one as no credentials at all (403). A refusal says how the key went."""
    key = {"type": "apiKey", "location": "header", "name": "Authorization", "env": "PET_AUTH"}
    info: UpstreamInfo = {**INFO, "securitySchemes": {"auth": key}}  # type: ignore[typeddict-item]
    spec = op(security=[["auth"]])
    api.reply(403, b'{"errors":[{"message":"You don\'t have permission"}]}', JSON)
    response = await call(make, spec, {}, environ={"PET_AUTH": "k3y"}, info=info)
    assert api.requests[0].header("Authorization") == "k3y"
    assert response.auth_hint == (
        "the API refused this to the credentials of PET_AUTH: they may be invalid or lack a permission; "
        "PET_AUTH is sent as the whole Authorization header, as it is set: if the API wants a "
        'word before the key, set it with one, e.g. "Bearer <key>"'
    )
    # a value that says its word already goes as it is, and its refusal is only a refusal
    api.reply(401, b"{}", JSON)
    response = await call(make, spec, {}, environ={"PET_AUTH": "Bearer k3y"}, info=info)
    assert api.requests[1].header("Authorization") == "Bearer k3y"
    assert response.auth_hint == "the API did not accept the credentials of PET_AUTH"


# -- content codings --------------------------------------------------------------------------


async def test_accept_encoding_names_what_can_be_decoded(api: FakeApi, make: Make) -> None:
    await call(make, op(), {})
    assert (
        api.requests[0].header("Accept-Encoding") == accept_encoding() == "gzip, deflate, br, zstd"
    )


@pytest.mark.parametrize(
    ("coding", "encode"),
    [
        ("gzip", gzip.compress),
        ("deflate", zlib.compress),
        ("br", brotli.compress),
        ("zstd", zstandard.ZstdCompressor().compress),
        ("gzip, br", lambda data: brotli.compress(gzip.compress(data))),
    ],
)
async def test_encoded_bodies_are_decoded(
    api: FakeApi, make: Make, coding: str, encode: object
) -> None:
    assert callable(encode)
    api.reply(200, encode(b'{"id":1}'), {**JSON, "Content-Encoding": coding})
    response = await call(make, op(), {})
    assert (response.body, response.encoding) == (b'{"id":1}', "")


async def test_a_coding_that_cannot_be_undone_is_named_and_the_bytes_kept(
    api: FakeApi, make: Make
) -> None:
    api.reply(200, b"\x1f\x9d\x90packed", {**JSON, "Content-Encoding": "compress"})
    response = await call(make, op(), {})
    assert (response.body, response.encoding) == (b"\x1f\x9d\x90packed", "compress")
    api.reply(200, b"not gzip at all", {**JSON, "Content-Encoding": "gzip"})
    response = await call(make, op(), {})
    assert (response.body, response.encoding) == (b"not gzip at all", "gzip")


async def test_a_decompression_bomb_is_not_expanded(api: FakeApi, make: Make) -> None:
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024))
    api.reply(200, bomb, {**JSON, "Content-Encoding": "gzip"})
    response = await call(make, op(), {})
    # the API answered 200: the start of its answer, never more than the limit
    assert (response.body, response.cut_short) == (b"\0" * MAX_RESPONSE_BYTES, True)
    assert len(bomb) < 100_000
    api.reply(500, bomb, {**JSON, "Content-Encoding": "gzip"})
    with pytest.raises(UpstreamError, match="answered 500 with a body larger than 10 MiB"):
        await call(make, op(), {})


async def test_basic_credentials_are_masked_in_echoed_bodies(api: FakeApi, make: Make) -> None:
    token = base64.b64encode(b"u:p4ss-S3CRET").decode()
    api.reply(200, json.dumps({"authorization": f"Basic {token}"}).encode(), JSON)
    environ = {"PET_USER": "u", "PET_PASSWORD": "p4ss-S3CRET"}
    response = await call(make, op(security=[["basic"]]), {}, environ=environ)
    assert json.loads(response.body) == {"authorization": "Basic ***"}


# -- the typed client ---------------------------------------------------------------------------


async def test_the_typed_client_sends_null_only_when_asked(api: FakeApi, make: Make) -> None:
    body = {
        "contentType": "application/json",
        "required": False,
        "properties": {"name": "name", "tag": "tag", "owner": "owner"},
    }
    client = ApiClient(make({"op": op("PATCH", "/pets/1", body=body)}))
    api.reply(200, b"{}", JSON)
    # None leaves an argument out; NULL sends JSON null, also inside a nested value
    await client.call("op", {"name": "Rex", "tag": NULL, "owner": {"id": 1, "team": NULL}})
    await client.call("op", {"name": "Rex", "tag": None})
    first, second = api.requests[-2:]
    assert json.loads(first.body) == {"name": "Rex", "tag": None, "owner": {"id": 1, "team": None}}
    assert json.loads(second.body) == {"name": "Rex"}
    assert repr(NULL) == "NULL"


async def test_the_typed_client_reads_304_and_json_lines(api: FakeApi, make: Make) -> None:
    client = ApiClient(make({"op": op()}))
    api.reply(304, b"", {"ETag": '"v1"'})
    assert await client.call("op", {}) is None
    api.reply(200, b'{"n":1}\n{"n":2}\n', {"Content-Type": "application/x-ndjson"})
    assert await client.call("op", {}) == [{"n": 1}, {"n": 2}]
    api.reply(200, b"<h1>not json</h1>", JSON)
    assert await client.call("op", {}) == "<h1>not json</h1>"


async def test_the_typed_client_returns_a_documented_redirect_s_location(make: Make) -> None:
    """A download link the operation documents (a 302, not followed here: it points to a private
    address) is the call's answer, as it is for the tool; an undocumented one is still an error."""
    link = "http://10.1.2.3/archive.tar.gz"

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": link})

    operations = {"archive": {**op("GET", "/archive"), "redirects": ["302"]}, "other": op()}
    client = ApiClient(
        make(
            operations,
            environ={"PET_BASE_URL": "https://api.example.com"},
            transport=httpx.MockTransport(handler),
        )
    )
    assert await client.call("archive", {}) == link
    with pytest.raises(ApiError) as raised:
        await client.call("other", {})
    assert raised.value.status == 302


async def test_the_advice_speaks_the_scheme_the_api_challenges_with(
    api: FakeApi, make: Make
) -> None:
    # pretalx (Django REST framework's TokenAuthentication) documents no scheme and answers
    # "WWW-Authenticate: Token": a "Bearer <token>" set as advised was refused again
    challenge = {**JSON, "WWW-Authenticate": "Token"}
    api.reply(401, b'{"detail":"Authentication credentials were not provided."}', challenge)
    anonymous = await call(make, op(), {})
    assert anonymous.auth_hint == (
        "it was sent without credentials; if the API needs them, set PET_HEADERS to the headers it "
        'expects, e.g. {"Authorization": "Token <token>"}'
    )
    headers = json.dumps({"Authorization": "Bearer 3f2a"})
    api.reply(401, b'{"detail":"Authentication credentials were not provided."}', challenge)
    refused = await call(make, op(), {}, environ={"PET_HEADERS": headers})
    assert refused.status == 401
    assert refused.auth_hint == (
        "the API did not accept the credentials of PET_HEADERS; it asks for the Token scheme: "
        '{"Authorization": "Token <token>"}'
    )
    # a Bearer challenge changes nothing
    api.reply(401, b"{}", {**JSON, "WWW-Authenticate": 'Bearer realm="x"'})
    assert (await call(make, op(), {})).auth_hint.endswith('"Bearer <token>"}')
