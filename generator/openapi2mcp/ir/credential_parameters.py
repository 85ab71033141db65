"""The parameters of an operation that are an API key's place, not tool arguments.

A parameter where an ``apiKey`` scheme puts its key (by location and name, a header's in any case)
is filled by the credential: Trello's ``key`` and ``token`` query parameters, LNbits's
``x-api-key`` header. ``credential_parameters`` takes them out of an operation's parameters and
says, in its security, which schemes it then needs or takes.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..load.refs import Location
from .model import ApiKeyScheme, Parameter, SecurityScheme
from .operation_parts import Context

Security = tuple[tuple[str, ...], ...]


def credential_parameters(
    ctx: Context,
    params: tuple[Parameter, ...],
    security: Security,
    schemes: Mapping[str, SecurityScheme],
    at: Location,
) -> tuple[tuple[Parameter, ...], Security]:
    """The operation's parameters without those an API key of its security fills, and its
    security with the schemes of the required ones made necessary.

    Trello declares its ``key`` and ``token`` query parameters on every operation *and* as the
    ``apiKey`` schemes ``api_key`` and ``api_token`` (as alternatives): as tool arguments they were
    sent beside the credential (``key=...&key=...``), and the model was asked for a secret. A
    parameter where a scheme of the operation puts its key is the credential's slot: it is no
    argument, and when it is required its scheme is needed with every alternative.

    A parameter where a scheme the operation does not require puts its key says the operation
    reads that key (FastAPI documents ``APIKeyHeader(name="X-API-KEY")`` as a scheme, and as the
    parameter of a route that takes the header itself: LNbits's ``x-api-key``, on operations that
    say nothing of security). It is the credential's slot too, and the scheme becomes one the
    operation takes: the only one (or none, when the parameter is optional) where it says nothing
    else, one more alternative where it does. The key had gone twice, the model's copy after the
    credential's, and in place of it a bearer token the operation does not read.
    """
    slots: dict[tuple[str, str], str] = {}
    required = {name for requirement in security for name in requirement}
    for name in sorted(schemes, key=lambda name: name not in required):
        scheme = schemes[name]
        if isinstance(scheme, ApiKeyScheme):
            slots.setdefault((scheme.location, slot(scheme.location, scheme.parameter)), name)
    if not slots:
        return params, security
    kept: list[Parameter] = []
    needed: list[str] = []
    read: dict[str, bool] = {}  # schemes the operation does not require, whether required here
    for param in params:
        scheme_name = slots.get((param.location, slot(param.location, param.name)))
        if scheme_name is None:
            kept.append(param)
            continue
        ctx.resolver.info(
            "param-is-credential",
            at.child("parameters"),
            f"{param.location} parameter {param.name!r} is where the security scheme "
            f"{scheme_name!r} puts its key: the credential fills it; it is no tool argument",
        )
        if scheme_name not in required:
            read[scheme_name] = read.get(scheme_name, False) or param.required
        elif param.required:
            needed.append(scheme_name)
    if read and not security:
        security = tuple((name,) for name in read) + (() if any(read.values()) else ((),))
    elif read:
        needed += [name for name, must in read.items() if must]
        # before an anonymous alternative, which any call satisfies
        taken = tuple((name,) for name, must in read.items() if not must)
        security = (*(a for a in security if a), *taken, *(a for a in security if not a))
    if needed:
        widened: dict[frozenset[str], tuple[str, ...]] = {}
        for alternative in security:
            each = tuple(dict.fromkeys((*alternative, *needed)))
            widened.setdefault(frozenset(each), each)  # (key, token) and (token, key) are one
        security = tuple(widened.values())
    return tuple(kept), security


def slot(location: str, name: str) -> str:
    """A parameter's name as its location compares it: a header's in any case."""
    return name.lower() if location == "header" else name
