"""Every environment variable the server reads under its prefix: name, default, meaning.

This registry is the one place they are described. The runtime builds each name with :func:`name`,
which refuses a suffix that is not registered, and the generator renders the package README's tables
from :data:`VARIABLES` (it loads this very module). A variable's ``default`` is
what the runtime does when it is unset; the runtime's tests check the numbers against the code that
applies them. The variables of the API's own security schemes and server URL variables are named per
API by the generator and carried in the catalog; they are not listed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Group = Literal["upstream", "tuning", "http", "per-user"]
# a default the generator knows per API (the spec's server URL, the configured timeout)
GENERATED: Final = "as generated"


@dataclass(frozen=True, slots=True)
class Variable:
    """``<PREFIX>_<suffix>``: what it means, its default (``""``: unset means off or none)."""

    suffix: str
    meaning: str
    default: str
    group: Group
    secret: bool = False


VARIABLES: Final[tuple[Variable, ...]] = (
    Variable("BASE_URL", "Base URL of the API", GENERATED, "upstream"),
    Variable("TIMEOUT", "Upstream request timeout in seconds", GENERATED, "upstream"),
    Variable(
        "HEADERS",
        'Extra headers for every upstream call, as a JSON object (e.g. {"Authorization": '
        '"token ..."}); they replace headers of the same name, never go to another origin, and '
        "credential-like values are masked in results",
        "",
        "upstream",
        secret=True,
    ),
    Variable(
        "SERVER_URLS",
        "Where the operations with a server of their own send their requests instead, as a JSON "
        "object of the server URL as the spec declares it to a URL",
        "",
        "upstream",
    ),
    Variable(
        "TOOL_MODE",
        "full (a tool per operation), dynamic (three tools that search, describe and call the "
        "operations), toolsets, code (search, describe and run_code, which runs a Python program "
        "calling the operations; needs the code extra) or auto",
        GENERATED,
        "tuning",
    ),
    Variable(
        "TOOLSETS",
        "Tags exposed in toolsets mode, comma separated; given alone it selects toolsets mode",
        "",
        "tuning",
    ),
    Variable(
        "CODE_TIMEOUT",
        "Code mode: seconds one program may run, its operation calls included; at most 3600",
        "30",
        "tuning",
    ),
    Variable(
        "CODE_MEMORY_MB",
        "Code mode: megabytes of memory one program may use, 16 to 65536",
        "256",
        "tuning",
    ),
    Variable(
        "SEARCH_LOG",
        "Dynamic and code modes: a file where each search (the query, the operations found) and "
        "each operation then called (its name, success) is appended as a JSON line, for "
        "openapi2mcp examples to turn into search examples; no arguments or results are written",
        "",
        "tuning",
    ),
    Variable(
        "CODE_MAX_CALLS",
        "Code mode: operation calls one program may make, 1 to 10000",
        "50",
        "tuning",
    ),
    Variable(
        "CODE_MAX_OUTPUT",
        "Code mode: characters one program may hand back, what it prints and its value together; "
        "at least 100",
        "100000",
        "tuning",
    ),
    Variable(
        "CODE_CONCURRENCY",
        "Code mode: programs run at once by one server process, 1 to 256; others wait for a turn",
        "4",
        "tuning",
    ),
    Variable(
        "RETRIES",
        "Extra attempts after transport errors, timeouts and 502/503/504 for idempotent methods, "
        "and after 429 for any method (0-10); a 500 is the API's answer and is not retried",
        "2",
        "tuning",
    ),
    Variable(
        "RETRY_BACKOFF", "Seconds before the first retry, doubling with jitter", "0.25", "tuning"
    ),
    Variable(
        "RETRY_MAX_WAIT", "Longest wait before one retry, Retry-After included", "10", "tuning"
    ),
    Variable(
        "CIRCUIT_THRESHOLD",
        "Consecutive failures of one operation (transport errors, timeouts, 502/503/504) that "
        "pause it; others go on (0 = off)",
        "5",
        "tuning",
    ),
    Variable(
        "CIRCUIT_COOLDOWN", "Seconds a paused operation waits before one probe call", "30", "tuning"
    ),
    Variable("MAX_CONCURRENCY", "Upstream calls in flight at once (0 = no limit)", "64", "tuning"),
    Variable(
        "RATE_LIMIT",
        "Upstream calls per second, bursts of as many (0 = no limit)",
        "100",
        "tuning",
    ),
    Variable(
        "LIMIT_WAIT",
        "Seconds a call over the rate or concurrency limit waits for its turn before it is "
        "refused (0 = refuse at once)",
        "2",
        "tuning",
    ),
    Variable("MAX_LINE_BYTES", "Longest stdio message line accepted", "4194304", "tuning"),
    Variable(
        "MAX_RESULT_CHARS",
        "Characters one tool result may carry, text and structured content together; a longer "
        "one is cut with a notice saying how to get the rest (at least 100)",
        "1048576",
        "tuning",
    ),
    Variable(
        "OUTPUT_SCHEMAS",
        "lenient (output schemas real responses satisfy), strict (as documented) or off (none)",
        GENERATED,
        "tuning",
    ),
    Variable(
        "CONFIRM",
        "Tool calls that need the user's yes first: off, destructive, all or when-supported "
        "(destructive, for clients that can ask)",
        GENERATED,
        "tuning",
    ),
    Variable(
        "ELICIT_MISSING",
        "false stops asking the user for required arguments the model left out",
        "true",
        "tuning",
    ),
    Variable(
        "STATE_SECRET",
        "Secret (16+ bytes) signing the requestState of questions to the user; replicas behind a "
        "load balancer MUST share one (unset: random per process, so a retry reaching another "
        "replica fails)",
        "",
        "tuning",
        secret=True,
    ),
    Variable("STATE_TTL", "Seconds a question's requestState stays valid", "600", "tuning"),
    Variable(
        "ALLOWED_ORIGINS",
        "Browser origins allowed to call the server, comma separated; others get 403",
        "localhost, 127.0.0.1 and [::1] on any port",
        "http",
    ),
    Variable("MAX_BODY_BYTES", "Largest request body accepted; larger gets 413", "4194304", "http"),
    Variable(
        "PUBLIC_URL",
        "The endpoint's URL as clients reach it (OAuth resource id)",
        "the bound address",
        "http",
    ),
    Variable(
        "AUTH_TOKENS",
        "Static bearer tokens accepted from MCP clients, comma separated, at least 16 characters "
        "each (unset: no authentication)",
        "",
        "http",
        secret=True,
    ),
    Variable(
        "AUTH_JWKS_URL",
        "Turns on OAuth 2.1: JWKS URL of the authorization server whose JWTs "
        "(RS256/PS256/ES256) are accepted",
        "",
        "http",
    ),
    Variable(
        "AUTH_ISSUER",
        "Required with the JWKS URL: the exact issuer (iss) of the tokens",
        "",
        "http",
    ),
    Variable("AUTH_AUDIENCE", "Expected audience, aud", "the public URL", "http"),
    Variable(
        "AUTH_REQUIRED_SCOPES",
        "Scopes every token must carry, space or comma separated",
        "",
        "http",
    ),
    Variable(
        "AUTH_SCOPE_HIERARCHY",
        "true (or a separator: ':', '.', '/') lets a granted scope cover its children: repo "
        "covers repo:read",
        "exact scopes",
        "http",
    ),
    Variable(
        "AUTH_AUTHORIZATION_SERVERS",
        "Authorization servers advertised in the protected resource metadata",
        "the issuer",
        "http",
    ),
    Variable(
        "CREDENTIALS",
        "Whose credentials calls carry: environment (this server's, from the variables above), "
        "per-user (each caller's own, entered at a sign-in link; needs inbound authentication "
        "and a token store key) or exchange (each caller's OAuth token traded for one of the "
        "API's, RFC 8693; needs AUTH_JWKS_URL)",
        GENERATED,
        "per-user",
    ),
    Variable(
        "TOKEN_STORE",
        "Where per-user credentials are kept, encrypted: sqlite:///absolute/path.db, "
        "sqlite:relative/path.db, or redis://host:port/db (replicas behind a load balancer "
        "share one; needs the redis extra)",
        "sqlite: tokens.db in the server's data directory ($XDG_DATA_HOME or ~/.local/share, "
        "then the server's name)",
        "per-user",
    ),
    Variable(
        "TOKEN_STORE_KEY",
        "The key that encrypts the token store: 32 random bytes as base64 or 64 hex digits "
        "(e.g. python -c 'import secrets; print(secrets.token_hex(32))'); replicas share it. "
        "For stdio, login generates one when unset and keeps it in store.key next to the "
        "default store, readable by you only (mode 0600)",
        "",
        "per-user",
        secret=True,
    ),
    Variable(
        "EXCHANGE_TOKEN_URL",
        "Exchange mode: the identity provider's token endpoint, where each caller's access "
        "token is exchanged (https; http only on loopback); the issued tokens are cached per "
        "caller and scopes in each process's memory until shortly before they expire",
        "",
        "per-user",
    ),
    Variable(
        "EXCHANGE_AUDIENCE",
        "Exchange mode: the audience asked for, the name the identity provider knows the API by "
        "(this or EXCHANGE_RESOURCE is required)",
        "",
        "per-user",
    ),
    Variable(
        "EXCHANGE_RESOURCE",
        "Exchange mode: the API's URI, sent as the RFC 8707 resource (this or EXCHANGE_AUDIENCE "
        "is required)",
        "",
        "per-user",
    ),
    Variable(
        "EXCHANGE_CLIENT_ID",
        "Exchange mode: this server's client id at the token endpoint (unset: no client "
        "authentication)",
        "",
        "per-user",
    ),
    Variable(
        "EXCHANGE_CLIENT_SECRET",
        "Exchange mode: the client's secret, sent with HTTP Basic authentication (unset: the "
        "client id alone is sent)",
        "",
        "per-user",
        secret=True,
    ),
)

_BY_SUFFIX: Final = {variable.suffix: variable for variable in VARIABLES}


def name(prefix: str, suffix: str) -> str:
    """``PETSTORE_RETRIES`` for the prefix ``PETSTORE`` (or ``PETSTORE_``); a suffix that is not
    registered is a programming error (``KeyError``), so no variable is read undocumented."""
    return f"{prefix.rstrip('_')}_{_BY_SUFFIX[suffix].suffix}"


def variable(suffix: str) -> Variable:
    """The registered variable ``<PREFIX>_<suffix>``."""
    return _BY_SUFFIX[suffix]
