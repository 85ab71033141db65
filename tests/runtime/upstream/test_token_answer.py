"""A token endpoint's answer, read one way by the client-credentials, authorization-code and
token-exchange flows: bounded, parsed, its token and lifetime checked, its error shown safely."""

from __future__ import annotations

import httpx
import pytest

from templates.runtime.upstream.token_answer import (
    MAX_TOKEN_RESPONSE_BYTES,
    error_detail,
    json_object,
    lifetime,
    read_bounded,
    usable_token,
)


def test_an_error_names_error_and_description_with_secrets_masked_before_the_cut() -> None:
    secret = "s3cr3t-" + "x" * 300
    answer = {"error": "invalid_client", "error_description": f"bad secret {secret} given"}
    detail = error_detail(answer, (secret, "short"))
    assert detail == " invalid_client (bad secret *** given)"
    # a secret that would straddle the 200-character cut leaves no part of itself behind
    long_answer = {"error": "x" * 190 + secret}
    assert error_detail(long_answer, (secret,)) == " " + "x" * 190 + "***"


def test_token_like_words_and_unprintable_characters_never_reach_the_message() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"
    detail = error_detail({"error": "invalid_grant", "error_description": f"{jwt}\x1b[2J"})
    assert detail == " invalid_grant (*** [2J)"
    assert error_detail(None) == error_detail({"error": 7}) == error_detail({}) == ""


def test_an_answer_without_an_oauth_error_gives_its_detail_or_message() -> None:
    # FastAPI's HTTPException, GNS3's login
    assert error_detail({"detail": "Incorrect username or password"}) == (
        " (Incorrect username or password)"
    )
    assert error_detail({"message": "Authentication was unsuccessful."}) == (
        " (Authentication was unsuccessful.)"
    )
    assert error_detail({"detail": "wrong pw hunter2"}, ("hunter2",)) == " (wrong pw ***)"
    # an OAuth error wins; a detail that is not text (FastAPI's 422 list) says nothing
    assert error_detail({"error": "invalid_grant", "detail": "x"}) == " invalid_grant"
    assert error_detail({"detail": [{"loc": ["body", "username"]}]}) == ""


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3600, 3600.0), ("120", 120.0), (0, 0.0), (-5, None), (True, None), ("soon", None),
     (float("inf"), None), (None, None)],
)  # fmt: skip
def test_expires_in_is_read_as_seconds(value: object, expected: float | None) -> None:
    assert lifetime(value) == expected


def test_a_token_must_fit_in_a_header() -> None:
    assert usable_token("  abc  ") == "abc"
    assert usable_token("a\r\nX-Injected: 1") is None
    assert usable_token("") is None
    assert usable_token(42) is None


def test_only_a_json_object_is_an_answer() -> None:
    assert json_object(b'{"access_token": "t"}') == {"access_token": "t"}
    assert json_object(b"[1]") is None
    assert json_object(b"<html>") is None


async def test_the_body_is_read_up_to_its_bound() -> None:
    big = b"a" * (MAX_TOKEN_RESPONSE_BYTES * 3)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=big)

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    async with client, client.stream("POST", "https://idp.example/token") as response:
        body = await read_bounded(response)
    assert body == big[:MAX_TOKEN_RESPONSE_BYTES]
