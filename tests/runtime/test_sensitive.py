"""The one list of secret-looking names (``sensitive.py``), as each of its three users asks it."""

from __future__ import annotations

import pytest

from templates.runtime.sensitive import (
    names_someone,
    scrub_fields,
    secret_argument,
    secret_header,
)


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("Authorization", True),
        ("Proxy-Authorization", True),
        ("X-Api-Key", True),
        ("Cookie", True),
        ("X-Session-Id", True),
        ("X-Hub-Signature-256", True),
        ("X-Client-Credential", True),
        ("Idempotency-Key", True),  # any "key": never mirrored, masked when it looks like one
        ("Accept", False),
        ("X-GitHub-Api-Version", False),
        ("X-Request-ID", False),
    ],
)
def test_header_names(name: str, secret: bool) -> None:
    assert secret_header(name) is secret


@pytest.mark.parametrize(
    ("name", "someone"),
    [
        ("X-SLURM-USER-NAME", True),
        ("X-Tenant-ID", True),
        ("X-Client-Id", True),
        ("userName", True),
        ("X-Account", True),
        ("X-SLURM-USER-TOKEN", False),
        ("X-Auth-User", False),  # "auth": kept secret, whatever follows
        ("X-Api-Key", False),
        ("api_key", False),
        ("X-User-Session-Id", False),
        ("X-RapidAPI-Host", False),
        ("Authorization", False),
    ],
)
def test_keys_that_name_someone(name: str, someone: bool) -> None:
    """An API key scheme whose value names a user (not masked in results) or proves who they are."""
    assert names_someone(name) is someone


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("password", True),
        ("new_passphrase", True),
        ("client_secret", True),
        ("api-key", True),
        ("apiKey", True),
        ("x_api_key", True),
        ("access_token", True),
        ("refreshToken", True),
        ("sessionId", True),
        ("credentials", True),
        ("private key", True),
        ("tokens_count", False),  # a word, not a fragment: "tokens" is not "token"
        ("passage", False),
        ("keyword", False),
        ("author", False),
    ],
)
def test_argument_names(name: str, secret: bool) -> None:
    assert secret_argument(name) is secret


def test_fields_in_text_are_masked_value_only() -> None:
    text = (
        '{"access_token": "abc.def", "name": "rex"} password=hunter2&user=al '
        "Authorization: Bearer sk-123 cookie: s=1"
    )
    assert scrub_fields(text, "***") == (
        '{"access_token": "***", "name": "rex"} password=***&user=al '
        "Authorization: Bearer *** cookie: ***"
    )


@pytest.mark.parametrize(
    ("text", "scrubbed"),
    [
        # ZenML's 401: a sentence goes on after each colon, no value follows the word "token"
        (
            "Authentication error: error decoding access token: Invalid JWT token: Not enough"
            " segments.",
            "Authentication error: error decoding access token: Invalid JWT token: Not enough"
            " segments.",
        ),
        # a quoted value is masked whole, spaces and all
        ('{"password": "two words", "a": 1}', '{"password": "***", "a": 1}'),
        ('"Authorization": "Bearer abc def"', '"Authorization": "Bearer ***"'),
        # a value ends the text, or a list goes on after it, or it is no plain word
        ("password: hunter", "password: ***"),
        ("password: letmein, user: bob", "password: ***, user: bob"),
        ("api_key: sk_live_abc more text", "api_key: *** more text"),
        ("password=Invalid more", "password=*** more"),
    ],
)
def test_a_sentence_after_a_secret_word_is_not_a_value(text: str, scrubbed: str) -> None:
    assert scrub_fields(text, "***") == scrubbed
