"""Security schemes as strategy objects: one class per kind of credential the catalog can name.

Each strategy knows its ``environment`` (the variables it reads, with a label and whether each is a
secret: the README, the bundle manifest and hints take them from here), whether it is ``satisfied``
by an environment, the ``secrets`` to mask wherever upstream text is shown, ``hints`` (what to set
when it is not satisfied) and how to ``apply`` itself to a request being assembled.
:func:`strategy` is the one place that reads a catalog entry's ``type``: an unknown one is a
``CatalogError`` when the catalog is loaded, never a silent API key.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol, assert_never
from urllib.parse import quote, quote_plus

from ..catalog.model import (
    ApiKeyScheme,
    BasicScheme,
    BearerScheme,
    OAuth2ClientCredentialsScheme,
    OAuth2PasswordScheme,
    SecurityScheme,
)
from ..errors import CatalogError

if TYPE_CHECKING:
    from .credentials import RequestParts


class Reader(Protocol):
    """The environment a scheme reads (``credentials.Credentials``)."""

    def get(self, env: str) -> str:
        """The variable's value, stripped ("" when unset)."""

    def given(self, env: str) -> bool:
        """Whether the variable is set, even to nothing (an empty password)."""


class Source(Reader, Protocol):
    """Where ``apply`` takes credentials from (``credentials.Credentials``)."""

    def secret(self, env: str, parts: RequestParts) -> str:
        """The variable's value, recorded in ``parts`` as a secret to mask; ``ValueError`` when it
        holds a line break."""


KINDS: Final = frozenset({"apiKey", "bearer", "basic", "oauth2ClientCredentials", "oauth2Password"})


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment variable a scheme reads."""

    env: str
    label: str
    secret: bool = True


@dataclass(frozen=True, slots=True)
class ApiKey:
    """``apiKey``: the value of ``env`` sent in a header, the query or a cookie."""

    name: str
    scheme: ApiKeyScheme

    def environment(self) -> tuple[Setting, ...]:
        if self.scheme.get("identity"):
            return (Setting(self.scheme["env"], "User name or id", secret=False),)
        return (Setting(self.scheme["env"], "API key"),)

    def satisfied(self, reader: Reader) -> bool:
        return bool(reader.get(self.scheme["env"]))

    def secrets(self, reader: Reader) -> list[str]:
        """The key, masked wherever shown; a key that names someone is no secret: masking the
        user's own name would blank it in every job, file or record they own."""
        if self.scheme.get("identity"):
            return []
        return [value for value in [reader.get(self.scheme["env"])] if value]

    def hints(self, reader: Reader | None = None) -> list[str]:
        return [self.scheme["env"]]

    def apply(self, source: Source, parts: RequestParts) -> None:
        env = self.scheme["env"]
        key = source.secret(env, parts) if not self.scheme.get("identity") else source.get(env)
        if any(c in key for c in "\r\n\0"):
            raise ValueError(f"the environment variable {env} contains a line break")
        where, wire = self.scheme["location"], self.scheme["name"]
        if where == "header":
            prefix = self.scheme.get("prefix", "")
            # a value that already says a scheme word ("Token abc", "Bearer ...") is sent as it is
            if prefix and " " not in key.strip():
                key = f"{prefix} {key.strip()}"
            elif wire.lower() == "authorization" and " " not in key.strip():
                # some APIs take a bare key there (Unleash), most a word before it (Directus
                # reads a bare one as no credentials): said if the answer is a refusal
                parts.auth_hint = (
                    f"{self.scheme['env']} is sent as the whole Authorization header, as it is "
                    'set: if the API wants a word before the key, set it with one, e.g. "Bearer '
                    '<key>"'
                )
            parts.headers.append((wire, key))
            parts.credential_headers.add(wire.lower())
        elif where == "query":
            parts.secrets.append(quote(key, safe=""))
            parts.secret_query.append(f"{quote(wire, safe='[]')}={quote(key, safe='')}")
        else:
            parts.cookies.append(f"{wire}={key}")

    def sent_as(self) -> str:
        """Where the key goes, for people: ``header 'X-Api-Key'``, ``header 'Authorization', as
        'Token <key>'``."""
        where = f"{self.scheme['location']} {self.scheme['name']!r}"
        prefix = self.scheme.get("prefix")
        if prefix:
            return f"{where}, as '{prefix} <key>'"
        if self.scheme["location"] == "header" and self.scheme["name"].lower() == "authorization":
            return f"{where}, whole: with its word if the API wants one, e.g. 'Bearer <key>'"
        return where


@dataclass(frozen=True, slots=True)
class Bearer:
    """``http`` bearer (and ``oauth2``/``openIdConnect`` without a flow the server can run): a
    token."""

    name: str
    scheme: BearerScheme

    def environment(self) -> tuple[Setting, ...]:
        return (Setting(self.scheme["env"], "Bearer token"),)

    def satisfied(self, reader: Reader) -> bool:
        return bool(reader.get(self.scheme["env"]))

    def secrets(self, reader: Reader) -> list[str]:
        return [value for value in [reader.get(self.scheme["env"])] if value]

    def hints(self, reader: Reader | None = None) -> list[str]:
        return [self.scheme["env"]]

    def apply(self, source: Source, parts: RequestParts) -> None:
        parts.headers.append(
            ("Authorization", f"Bearer {source.secret(self.scheme['env'], parts)}")
        )
        parts.credential_headers.add("authorization")


@dataclass(frozen=True, slots=True)
class Basic:
    """``http`` basic: a user name and a password. A password variable set to nothing sends the
    user name alone, as ``curl -u key:`` does: Stripe, Karrio and others take an API key so, and
    then the user name is the secret."""

    name: str
    scheme: BasicScheme

    def environment(self) -> tuple[Setting, ...]:
        return (
            Setting(self.scheme["usernameEnv"], "User name"),
            Setting(self.scheme["passwordEnv"], "Password"),
        )

    def satisfied(self, reader: Reader) -> bool:
        user, password = self.scheme["usernameEnv"], self.scheme["passwordEnv"]
        return bool(reader.get(user)) and (bool(reader.get(password)) or reader.given(password))

    def secrets(self, reader: Reader) -> list[str]:
        if not self.satisfied(reader):
            return []
        user, password = (
            reader.get(self.scheme["usernameEnv"]),
            reader.get(self.scheme["passwordEnv"]),
        )
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        return [password, token] if password else [user, token]

    def hints(self, reader: Reader | None = None) -> list[str]:
        """What to set; a user name set without its password is told how to send it alone."""
        user, password = self.scheme["usernameEnv"], self.scheme["passwordEnv"]
        if reader is not None and reader.get(user) and not self.satisfied(reader):
            return [user, f"{password} (set to nothing, if the API takes the user name alone)"]
        return [user, password]

    def apply(self, source: Source, parts: RequestParts) -> None:
        user = source.secret(self.scheme["usernameEnv"], parts)
        password = source.secret(self.scheme["passwordEnv"], parts)
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        parts.secrets.append(token)
        parts.headers.append(("Authorization", f"Basic {token}"))
        parts.credential_headers.add("authorization")


@dataclass(frozen=True, slots=True)
class OAuth2ClientCredentials:
    """``oauth2`` client credentials: a ready token in ``env``, else one fetched with the client id
    and secret once the call may go ahead (``upstream.oauth``)."""

    name: str
    scheme: OAuth2ClientCredentialsScheme

    def environment(self) -> tuple[Setting, ...]:
        return (
            Setting(self.scheme["clientIdEnv"], "OAuth client id"),
            Setting(self.scheme["clientSecretEnv"], "OAuth client secret"),
            Setting(self.scheme["env"], "Access token"),
        )

    def satisfied(self, reader: Reader) -> bool:
        if reader.get(self.scheme["env"]):
            return True
        return bool(
            reader.get(self.scheme["clientIdEnv"]) and reader.get(self.scheme["clientSecretEnv"])
        )

    def secrets(self, reader: Reader) -> list[str]:
        return _fetching_secrets(self.scheme, reader)

    def hints(self, reader: Reader | None = None) -> list[str]:
        """What to set; with ``reader``, what was sent: the ready token, when it is set."""
        if reader is not None and reader.get(self.scheme["env"]):
            return [self.scheme["env"]]
        token = f"(or an access token in {self.scheme['env']})"
        return [self.scheme["clientIdEnv"], f"{self.scheme['clientSecretEnv']} {token}"]

    def apply(self, source: Source, parts: RequestParts) -> None:
        _apply_fetched(self.name, self.scheme, source, parts)


@dataclass(frozen=True, slots=True)
class OAuth2Password:
    """``oauth2`` password: a ready token in ``env``, else one fetched with the user name and
    password (and the client id and secret, when set) once the call may go ahead
    (``upstream.oauth``)."""

    name: str
    scheme: OAuth2PasswordScheme

    def environment(self) -> tuple[Setting, ...]:
        return (
            Setting(self.scheme["usernameEnv"], "User name"),
            Setting(self.scheme["passwordEnv"], "Password"),
            Setting(self.scheme["clientIdEnv"], "OAuth client id (optional)"),
            Setting(self.scheme["clientSecretEnv"], "OAuth client secret (optional)"),
            Setting(self.scheme["env"], "Access token"),
        )

    def satisfied(self, reader: Reader) -> bool:
        if reader.get(self.scheme["env"]):
            return True
        return bool(
            reader.get(self.scheme["usernameEnv"]) and reader.get(self.scheme["passwordEnv"])
        )

    def secrets(self, reader: Reader) -> list[str]:
        password = reader.get(self.scheme["passwordEnv"])
        return _fetching_secrets(self.scheme, reader) + ([password] if password else [])

    def hints(self, reader: Reader | None = None) -> list[str]:
        """What to set; with ``reader``, what was sent: the ready token, when it is set (ZenML's
        401 to a bad token named the user name and password, which were not sent)."""
        if reader is not None and reader.get(self.scheme["env"]):
            return [self.scheme["env"]]
        token = f"(or an access token in {self.scheme['env']})"
        return [self.scheme["usernameEnv"], f"{self.scheme['passwordEnv']} {token}"]

    def apply(self, source: Source, parts: RequestParts) -> None:
        _apply_fetched(self.name, self.scheme, source, parts)


def _fetching_secrets(
    scheme: OAuth2ClientCredentialsScheme | OAuth2PasswordScheme, reader: Reader
) -> list[str]:
    """A scheme's ready token, client secret and the Basic pair made of its client id."""
    found = [value for value in [reader.get(scheme["env"])] if value]
    client, secret = reader.get(scheme["clientIdEnv"]), reader.get(scheme["clientSecretEnv"])
    if secret:
        pair = f"{quote_plus(client, safe='')}:{quote_plus(secret, safe='')}"
        found += [secret, base64.b64encode(pair.encode()).decode("ascii")]
    return found


def _apply_fetched(
    name: str,
    scheme: OAuth2ClientCredentialsScheme | OAuth2PasswordScheme,
    source: Source,
    parts: RequestParts,
) -> None:
    """A ready token as the bearer, else the scheme's name for the token to fetch."""
    if source.get(scheme["env"]):
        # a token issued beforehand wins over fetching one
        token = source.secret(scheme["env"], parts)
        parts.headers.append(("Authorization", f"Bearer {token}"))
    else:
        parts.oauth.append(name)
    parts.credential_headers.add("authorization")


Scheme = ApiKey | Bearer | Basic | OAuth2ClientCredentials | OAuth2Password


def strategy(name: str, scheme: SecurityScheme) -> Scheme:
    """The strategy for the catalog's entry ``name``; an unknown ``type`` is a ``CatalogError``."""
    kind: object = scheme.get("type")
    if kind not in KINDS:
        raise CatalogError(f"security scheme {name!r} has an unknown type {kind!r}")
    if scheme["type"] == "apiKey":
        return ApiKey(name, scheme)
    if scheme["type"] == "bearer":
        return Bearer(name, scheme)
    if scheme["type"] == "basic":
        return Basic(name, scheme)
    if scheme["type"] == "oauth2ClientCredentials":
        return OAuth2ClientCredentials(name, scheme)
    if scheme["type"] == "oauth2Password":
        return OAuth2Password(name, scheme)
    assert_never(scheme["type"])


def strategies(schemes: Mapping[str, SecurityScheme]) -> dict[str, Scheme]:
    """Every scheme of the catalog as its strategy, by name."""
    return {name: strategy(name, scheme) for name, scheme in schemes.items()}


def describe(scheme: Scheme) -> str:
    """How the scheme sends its credential, for people (README, bundle settings)."""
    match scheme:
        case ApiKey():
            return f"sent as {scheme.sent_as()}"
        case Bearer():
            return "sent as Authorization: Bearer"
        case Basic():
            return "sent as Authorization: Basic"
        case OAuth2ClientCredentials():
            return f"tokens from {scheme.scheme['tokenUrl']}"
        case OAuth2Password():
            return f"tokens from {scheme.scheme['tokenUrl']}, signed in with a password"
        case _:
            assert_never(scheme)
