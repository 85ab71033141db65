"""The catalog's security schemes: how a generated server gets the credentials of each scheme the
API declares, as plain JSON data (``upstream.schemes`` turns each into a strategy). Re-exported by
``catalog.model``; stdlib-only, like it.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict


class ApiKeyScheme(TypedDict):
    """``apiKey`` security scheme: the value comes from the environment variable ``env``."""

    type: Literal["apiKey"]
    # where the key goes and under which name
    location: Literal["header", "query", "cookie"]
    name: str
    env: str
    # the word before the key in an Authorization header ("Token"), unless the value has one
    prefix: NotRequired[str]
    # the key names someone (a user name or id, ``sensitive.names_someone``): not masked in results
    identity: NotRequired[bool]


class AuthorizationCodeSpec(TypedDict):
    """An ``oauth2`` scheme's ``authorizationCode`` flow: how a user signs in to the API in per-user
    mode (PKCE, redirect URI ``<public URL>-signin/callback``). The server's registration at the
    authorization server comes from ``clientIdEnv`` and ``clientSecretEnv`` (none: a public client).
    """

    authorizationUrl: str
    tokenUrl: str
    clientIdEnv: str
    clientSecretEnv: str
    refreshUrl: NotRequired[str]


class BearerScheme(TypedDict):
    """``http``/``bearer``, ``oauth2`` and ``openIdConnect``: a token sent as ``Authorization: Bearer``."""

    type: Literal["bearer"]
    env: str
    # per-user mode signs users in with it; otherwise the token comes from ``env``
    authorizationCode: NotRequired[AuthorizationCodeSpec]


class BasicScheme(TypedDict):
    """``http``/``basic``: user name and password from two environment variables."""

    type: Literal["basic"]
    usernameEnv: str
    passwordEnv: str


class OAuth2ClientCredentialsScheme(TypedDict):
    """``oauth2`` with a ``clientCredentials`` flow: tokens fetched from ``tokenUrl`` and cached.

    The client id and secret come from ``clientIdEnv``/``clientSecretEnv``; a token already in
    ``env`` is used as is instead. A relative ``tokenUrl`` is resolved against the base URL.
    """

    type: Literal["oauth2ClientCredentials"]
    tokenUrl: str
    clientIdEnv: str
    clientSecretEnv: str
    env: str


class OAuth2PasswordScheme(TypedDict):
    """``oauth2`` with a ``password`` flow: tokens fetched from ``tokenUrl`` with the user name and
    password in ``usernameEnv``/``passwordEnv`` (RFC 6749 §4.3), and cached.

    A client id in ``clientIdEnv`` (and its secret) authenticates the client too, when set; a token
    already in ``env`` is used as is instead. A relative ``tokenUrl`` is resolved against the base
    URL.
    """

    type: Literal["oauth2Password"]
    tokenUrl: str
    usernameEnv: str
    passwordEnv: str
    clientIdEnv: str
    clientSecretEnv: str
    env: str


SecurityScheme = (
    ApiKeyScheme | BearerScheme | BasicScheme | OAuth2ClientCredentialsScheme | OAuth2PasswordScheme
)
