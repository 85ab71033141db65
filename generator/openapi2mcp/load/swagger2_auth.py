"""Swagger 2.0 ``Authorization`` header parameters, turned into a credential.

OpenAPI 3 says a header parameter named ``Authorization`` is ignored (security schemes describe it);
Swagger 2.0 has no such rule, and hand-written 2.0 documents often declare the header as a plain
parameter instead of a security definition. Dropping it, as the 3.x rule would, leaves no way to
authenticate; offering it as a tool argument would put a credential in the model's hands. So the
converted document gets an ``apiKey`` security scheme for the header (its environment variable is
the credential) and each operation that declared the parameter may use it: as its only requirement
when it declared none, as another alternative when none of its own already sets ``Authorization``.
Works on the converted (3.0-shaped) document, in place; each operation it changes is reported.

OpenAPI 3 documents converted from 2.0 keep such parameters too (APIs.guru's, and hand-written ones
that copy the habit): where nothing else of the operation sets the header, they are read the same
way (``declares_authorization`` tells whether a document needs it, before it is copied).
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Report, pointer

__all__ = ["SCHEME_NAME", "authorization_parameters", "declares_authorization"]

SCHEME_NAME = "authorization"
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch")
_PARAMETERS_PREFIX = "#/components/parameters/"

JsonObject = dict[str, Any]


def authorization_parameters(document: JsonObject, report: Report) -> None:
    """Move ``in: header`` ``Authorization`` parameters of ``document`` into a security scheme."""
    components = document.get("components")
    components = components if isinstance(components, dict) else {}
    shared = components.get("parameters")
    shared = shared if isinstance(shared, dict) else {}
    paths = document.get("paths")
    if not isinstance(paths, dict):
        return
    scheme = ""
    for path, item in paths.items():
        if not isinstance(item, dict):
            continue
        on_path = _take(item, shared)
        for method in _METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            declared = _take(operation, shared) or on_path
            if declared is None:
                continue
            if not scheme:
                scheme = _add_scheme(document, declared)
            _allow(operation, document, scheme, optional=declared.get("required") is not True)
            report.info(
                "swagger-authorization-header",
                pointer("paths", path, method),
                f"the Authorization header parameter becomes the security scheme {scheme!r} "
                "(a credential from the environment, not a tool argument)",
            )
    if not scheme:
        return
    for name in [name for name, value in shared.items() if _is_authorization(value)]:
        del shared[name]


def declares_authorization(document: JsonObject) -> bool:
    """Whether any path item, operation or shared parameter of ``document`` is an ``in: header``
    ``Authorization`` parameter (written inline or as a shared one)."""
    shared = document.get("components", {})
    shared = shared.get("parameters") if isinstance(shared, dict) else None
    if isinstance(shared, dict) and any(_is_authorization(v) for v in shared.values()):
        return True
    paths = document.get("paths")
    for item in paths.values() if isinstance(paths, dict) else ():
        owners = [item, *(item.get(m) for m in _METHODS)] if isinstance(item, dict) else []
        for owner in owners:
            parameters = owner.get("parameters") if isinstance(owner, dict) else None
            if isinstance(parameters, list) and any(_is_authorization(p) for p in parameters):
                return True
    return False


def _is_authorization(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("in") == "header"
        and str(value.get("name", "")).lower() == "authorization"
    )


def _take(owner: JsonObject, shared: JsonObject) -> JsonObject | None:
    """Remove ``owner``'s Authorization header parameters; the first of them, if any."""
    parameters = owner.get("parameters")
    if not isinstance(parameters, list):
        return None
    found: JsonObject | None = None
    kept: list[Any] = []
    for entry in parameters:
        target = entry
        ref = entry.get("$ref") if isinstance(entry, dict) else None
        if isinstance(ref, str) and ref.startswith(_PARAMETERS_PREFIX):
            target = shared.get(ref.removeprefix(_PARAMETERS_PREFIX))
        if _is_authorization(target):
            found = found or target
        else:
            kept.append(entry)
    if found is not None:
        owner["parameters"] = kept
    return found


def _add_scheme(document: JsonObject, declared: JsonObject) -> str:
    components = document.setdefault("components", {})
    schemes = components.setdefault("securitySchemes", {})
    name = SCHEME_NAME
    while name in schemes:
        name += "_"
    scheme: JsonObject = {"type": "apiKey", "in": "header", "name": "Authorization"}
    description = declared.get("description")
    if isinstance(description, str) and description:
        scheme["description"] = description
    schemes[name] = scheme
    return name


def _sets_authorization(name: str, document: JsonObject) -> bool:
    schemes = document.get("components", {}).get("securitySchemes", {})
    scheme = schemes.get(name) if isinstance(schemes, dict) else None
    if not isinstance(scheme, dict):
        return False
    if scheme.get("type") in ("http", "oauth2", "openIdConnect"):
        return True
    return _is_authorization(scheme)


def _allow(operation: JsonObject, document: JsonObject, scheme: str, *, optional: bool) -> None:
    security = operation.get("security", document.get("security"))
    alternatives = (
        [a for a in security if isinstance(a, dict)] if isinstance(security, list) else []
    )
    if any(_sets_authorization(name, document) for a in alternatives for name in a):
        return  # the operation's own scheme already sends the header
    named = [a for a in alternatives if a]
    anonymous = optional or (not named and bool(alternatives))
    operation["security"] = [*named, {scheme: []}, *([{}] if anonymous else [])]
