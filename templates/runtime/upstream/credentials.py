"""Upstream credentials: per security scheme from the environment, and extra headers.

``Credentials`` reads what each security scheme of the catalog needs (``<PREFIX>_<SCHEME>`` for API
keys, ``…_TOKEN`` for bearer tokens, ``…_USERNAME``/``…_PASSWORD`` for basic, ``…_CLIENT_ID``/
``…_CLIENT_SECRET`` for OAuth2 client credentials) and places it in a request being assembled
(``RequestParts``). When no alternative of an operation's security can be satisfied the request is
sent without credentials — many APIs serve public reads anonymously, and the API, not this server,
decides — and the request carries a hint naming the variables to set, which a 401/403 answer
repeats. ``extra_headers`` reads the headers sent with every call: the config file's (non-secret,
written into the catalog) and ``<PREFIX>_HEADERS`` (a JSON object, treated as secret: its headers never
go to another origin, and the values of credential-like ones are masked wherever upstream text is
shown). It is also the only way to authenticate to an API whose description declares no security
scheme. No value read here ever appears in a message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..catalog.model import UpstreamInfo
from ..errors import HeaderError
from ..sensitive import secret_header
from .request import Prepared
from .schemes import ApiKey, strategies

__all__ = ["Credentials", "ExtraHeaders", "HeaderError", "RequestParts", "extra_headers"]

# the last segment of a sign-in's path (login, signin, sign-in, authenticate, token)
_SIGN_IN = re.compile(r"/(?:log-?in|sign-?in|authenticate|token)/?$", re.IGNORECASE)

_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# framing and content negotiation this server owns: a configured header may not replace them
_RESERVED_HEADERS = frozenset(
    {
        "host",
        "content-length",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "upgrade",
        "te",
        "trailer",
        "proxy-connection",
        "content-type",
        "accept-encoding",
    }
)


# values that look like a key whatever their header (names: sensitive.secret_header)
_KEY_LIKE = re.compile(r"(?=[^ ]*[0-9])(?=[^ ]*[A-Za-z])[A-Za-z0-9_\-+/=.~:]{20,}")


@dataclass(frozen=True, slots=True)
class ExtraHeaders:
    """Headers sent with every upstream call; ``secret`` ones come from the environment."""

    headers: tuple[tuple[str, str], ...] = ()
    # the values and the (lower-case) names of the headers from the environment
    secret: tuple[str, ...] = ()
    secret_names: frozenset[str] = frozenset()
    # the variable that holds the secret ones, for hints and messages
    env: str = ""

    def names(self) -> frozenset[str]:
        return frozenset(name.lower() for name, _ in self.headers)


def extra_headers(
    environ: Mapping[str, str], env: str, configured: Mapping[str, str] | None = None
) -> ExtraHeaders:
    """The config file's headers overlaid by ``<PREFIX>_HEADERS`` (``env``), checked.

    Raises ``HeaderError`` naming the variable (or the config table) and the header.
    """
    merged: dict[str, tuple[str, str]] = {}
    for name, value in (configured or {}).items():
        _check_header(name, value, "the config file's [upstream.headers]")
        merged[name.lower()] = (name, value)
    raw = (environ.get(env) or "").strip()
    secret: list[str] = []
    secret_names: set[str] = set()
    if raw:
        try:
            given = json.loads(raw)
        except ValueError:
            raise HeaderError(
                f'{env} must be a JSON object of header names and values, e.g. {{"Authorization": '
                '"Bearer <token>"}; it is not valid JSON'
            ) from None
        if not isinstance(given, dict):
            raise HeaderError(f"{env} must be a JSON object of header names and values")
        for name, value in given.items():
            if not isinstance(value, str):
                raise HeaderError(f"{env}: the value of header {name[:60]!r} must be a string")
            _check_header(name, value, env)
            merged[name.lower()] = (name, value.strip())
            secret_names.add(name.lower())
            secret += _secret_forms(name, value.strip())
    return ExtraHeaders(tuple(merged.values()), tuple(secret), frozenset(secret_names), env)


def _secret_forms(name: str, value: str) -> list[str]:
    """What to mask of one header from the environment: the value of a credential-like header
    (and the credential after its scheme word, ``Bearer <this>``) or a value that looks like a key.

    ``X-GitHub-Api-Version: 2022-11-28`` is not masked: doing so would blank every date in results.
    """
    if not value:
        return []
    if secret_header(name) or _KEY_LIKE.fullmatch(value):
        scheme, _, credential = value.partition(" ")
        return [value, credential.strip()] if credential.strip() and scheme.isalpha() else [value]
    return []


def _check_header(name: str, value: str, where: str) -> None:
    if not _TOKEN.fullmatch(name):
        raise HeaderError(f"{where}: {name[:60]!r} is not a valid header name")
    if name.lower() in _RESERVED_HEADERS:
        raise HeaderError(f"{where}: the header {name} is set by the server itself")
    if any(not (" " <= c <= "~" or c == "\t") for c in value):
        raise HeaderError(
            f"{where}: the value of header {name} must be printable ASCII on one line"
        )


@dataclass(slots=True)
class RequestParts:
    """A request being assembled; ``secrets`` are scrubbed from any error message."""

    headers: list[tuple[str, str | bytes]] = field(default_factory=list)
    query: list[str] = field(default_factory=list)
    secret_query: list[str] = field(default_factory=list)
    cookies: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    # names (lower case) of the headers that carry credentials: never sent to another origin
    credential_headers: set[str] = field(default_factory=set)
    # client-credentials schemes whose tokens are fetched once the call may go ahead
    oauth: list[str] = field(default_factory=list)
    # what a 401/403 answer should tell the user about credentials ("" when nothing to say): what
    # to set when none were sent, what to know of them when some were; and the variables whose
    # credentials were sent (the answer's status says what to tell of them)
    auth_hint: str = ""
    sent_credentials: str = ""

    def raw_headers(self) -> list[tuple[bytes, bytes]]:
        return [
            (k.encode("utf-8"), v if isinstance(v, bytes) else v.encode("utf-8"))
            for k, v in self.headers
        ]


class Credentials:
    """The credentials of one server's security schemes, read from its environment."""

    def __init__(self, info: UpstreamInfo, environ: Mapping[str, str], extra: ExtraHeaders) -> None:
        self._schemes = strategies(info["securitySchemes"])
        self._environ = environ
        self.extra = extra
        # the schemes that send a session cookie: an alternative of them alone is tried last
        self._cookies = frozenset(
            name
            for name, scheme in self._schemes.items()
            if isinstance(scheme, ApiKey) and scheme.scheme["location"] == "cookie"
        )
        # the server's own credentials (``sent_credentials``) the API has answered a 2xx to: a
        # 403 to them is about this call (n8n's licence, Airflow's settings), not the credentials
        self.accepted: set[str] = set()

    def answered(self, prepared: Prepared, status: int, challenge: str = "") -> str:
        """What an answer of ``status`` to ``prepared`` tells about credentials (``answer_hint``),
        in the scheme its ``WWW-Authenticate`` ``challenge`` asks for; the server's own
        credentials are remembered as accepted when it is a 2xx."""
        sent, own = prepared.sent_credentials, prepared.personal is None
        accepted = own and sent in self.accepted  # by an answer before this one
        if own and sent and 200 <= status < 300:
            self.accepted.add(sent)
        hint = answer_hint(prepared.auth_hint, sent, status, accepted=accepted)
        scheme = _CHALLENGE.match(challenge)
        if scheme is None or scheme[1].lower() == "bearer":
            return hint
        # Django REST framework's TokenAuthentication answers "WWW-Authenticate: Token" (pretalx)
        word = scheme[1]
        if _BEARER_EXAMPLE in hint:
            return hint.replace(_BEARER_EXAMPLE, f'"{word} <token>"')
        if sent and status == 401 and sent == self.extra.env:
            return f'{hint}; it asks for the {word} scheme: {{"Authorization": "{word} <token>"}}'
        return hint

    def of(self, environ: Mapping[str, str]) -> Credentials:
        """The same schemes and extra headers, their credentials read from ``environ`` instead (a
        caller's own, in per-user mode)."""
        other = Credentials.__new__(Credentials)
        other._schemes, other._environ, other.extra = self._schemes, environ, self.extra
        other._cookies = self._cookies
        return other

    def values(self) -> list[str]:
        """Every configured secret (user names and client ids are not secrets), the Basic
        tokens made of them and the values of ``<PREFIX>_HEADERS``: masked wherever shown."""
        values: list[str] = list(self.extra.secret)
        for scheme in self._schemes.values():
            values += scheme.secrets(self)
        return values

    def apply(self, security: Sequence[Sequence[str]], parts: RequestParts, path: str = "") -> None:
        """Place the credentials of the first satisfied alternative of ``security``.

        Without one, nothing is placed (the request goes out anonymously) and ``parts.auth_hint``
        names what to set, unless the operation at ``path`` is a sign-in that may go without:
        its 401 is about what it was given (Signal K's login, "Invalid username/password", had
        been told to set a bearer token). Raises ``ValueError`` for a credential holding a line
        break.
        """
        options: list[str] = []
        # a session cookie last: Django's refuses writes without a CSRF token, and
        # drf-spectacular lists it first (Mayan's basic credentials set beside it were not sent)
        ordered = sorted(security, key=self._by_cookie) if self._cookies else security
        for alternative in ordered:
            chosen = [self._schemes[name] for name in alternative if name in self._schemes]
            if not alternative or len(chosen) < len(alternative):
                continue  # anonymous, or a scheme this server cannot use (the generator said so)
            needed = [hint for scheme in chosen for hint in scheme.hints(self)]
            if all(scheme.satisfied(self) for scheme in chosen):
                for scheme in chosen:
                    scheme.apply(self, parts)
                parts.sent_credentials = ", ".join(h for s in chosen for h in s.hints(self))
                return
            # what is still to set, when some of it is (Glances' user name without its password)
            unset = [hint for hint in needed if not self.get(hint)]
            option = " and ".join(dict.fromkeys(unset or needed))
            if option not in options:
                options.append(option)
        if self.extra.secret:
            # the credentials went in the headers set (a bearer token in <PREFIX>_HEADERS): a 403
            # is theirs lacking a permission, a 401 theirs refused
            parts.sent_credentials = self.extra.env
            if options:
                parts.auth_hint = f"to send others, set {', or set '.join(options)}"
        elif options and not (_SIGN_IN.search(path) and [] in [list(a) for a in security]):
            parts.auth_hint = (
                "it was sent without credentials; to send them, set the environment variable "
                + ", or set ".join(options)
            )
        elif options:
            parts.auth_hint = ""
        elif self._schemes and [] in [list(alt) for alt in security]:
            # the operation says it needs none: a 401 is about what it carries (ZenML's sign-in,
            # whose own form was refused), no credential to set
            parts.auth_hint = ""
        else:
            parts.auth_hint = (
                f"it was sent without credentials; if the API needs them, set {self.extra.env} to "
                'the headers it expects, e.g. {"Authorization": "Bearer <token>"}'
            )

    def _by_cookie(self, alternative: Sequence[str]) -> bool:
        """Whether ``alternative`` is a cookie alone (sorted after the others)."""
        return bool(alternative) and self._cookies.issuperset(alternative)

    def get(self, env: str) -> str:
        return (self._environ.get(env) or "").strip()

    def given(self, env: str) -> bool:
        return env in self._environ

    def secret(self, env: str, parts: RequestParts) -> str:
        value = self.get(env)
        if any(c in value for c in "\r\n\0"):
            raise ValueError(f"the environment variable {env} contains a line break")
        parts.secrets.append(value)
        return value


# the scheme word a WWW-Authenticate challenge starts with (RFC 9110 §11.6.1)
_CHALLENGE = re.compile(r"\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)")
_BEARER_EXAMPLE = '"Bearer <token>"'


def answer_hint(advice: str, sent: str, status: int, *, accepted: bool = False) -> str:
    """What a 401 or 403 answer tells about credentials: ``advice`` (what to set) when none were
    sent; of those ``sent``, that they were refused (401) or may be invalid or lack a permission
    (403: dstack answers a wrong token so, GitHub a token without the scope), or, when the API
    has ``accepted`` them for other calls, that this one is refused to them (401 or 403), then
    ``advice`` about them, if any."""
    if not sent:
        return advice
    if status == 403 and accepted:
        told = (
            f"the API accepts the credentials of {sent} for other calls and refused them this "
            "one: a permission they lack, or what the API's words above say"
        )
    elif status == 403:
        told = (
            f"the API refused this to the credentials of {sent}: they may be invalid or lack a "
            "permission"
        )
    elif accepted:
        # LiteLLM's 401 for a pass-through route whose upstream credential it lacks
        told = (
            f"the API accepts the credentials of {sent} for other calls and did not for this "
            "one: what its words above say, or they were revoked since"
        )
    else:
        told = f"the API did not accept the credentials of {sent}"
    return f"{told}; {advice}" if advice else told
