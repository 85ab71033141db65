"""OpenAPI document → :class:`~openapi2mcp.ir.model.Api`: the only place that reads the spec.

This module owns :func:`parse_api`. It checks the document's shape (``validate.py``; problems become
warnings), then reads it tolerantly as plain data: metadata, servers, tags, security schemes and
requirements here, each operation's parameters, body and response in ``operations.py``, schemas in
``schemas.py``, ``$ref`` in ``refs.py``. Each ``x-mcp`` is checked where it is written (``x_mcp.py``);
the document's and a path item's are defaults merged under each operation's own into its typed
:class:`~openapi2mcp.ir.x_mcp.XMcp`; response ``links`` are kept as written. An operation that cannot
be understood is skipped with an ``op-skipped`` warning naming its pointer; nothing in the document
makes the run crash.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Final, cast
from urllib.parse import urlsplit

from ..diagnostics import Report
from ..load.reading import LoadedDocument, is_swagger2
from ..load.refs import ROOT, Location, Resolver, inline_references
from ..load.swagger2 import convert_document, convert_fragment, says_nullable
from ..load.swagger2_auth import authorization_parameters, declares_authorization
from ..load.swagger2_habits import read_swagger2_parameters, writes_swagger2_parameters
from ..load.validate import check_document
from .authorization_prefix import authorization_prefix
from .bodies import declared_content_type, request_body
from .credential_parameters import Security, credential_parameters
from .model import (
    Api,
    ApiKeyScheme,
    AuthorizationCodeFlow,
    HttpBasicScheme,
    HttpBearerScheme,
    HttpMethod,
    Link,
    OAuth2ClientCredentialsScheme,
    OAuth2PasswordScheme,
    Operation,
    SecurityScheme,
    Server,
    ServerVariable,
    Tag,
)
from .operation_parts import (
    Context,
    SkipOperation,
    documented_redirects,
    parameters,
    response,
    switches_protocols,
    text,
)
from .patch_bodies import checks_as_declared, partial_patches
from .schemas import SchemaNormaliser
from .twins import without_slash_twins
from .x_mcp import XMcpLevel, merge, read_level

METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SERVER_VARIABLE: Final = re.compile(r"\{([^{}]+)\}")
# a path key that starts with a parameter and goes on: ``{task_href}`` or ``{task_href}add_role/``
_LEADING_VARIABLE: Final = re.compile(r"\{([^{}/]+)\}")


@dataclass(frozen=True, slots=True)
class _Schemes:
    supported: dict[str, SecurityScheme]
    unsupported: frozenset[str]


def parse_api(doc: LoadedDocument, report: Report) -> Api:
    """Build the IR of ``doc``; every problem found is added to ``report``.

    A Swagger 2.0 document is first converted to OpenAPI 3.0 (``swagger2.py``): the conversion's
    diagnostics point into the Swagger document, all later ones into the converted document.
    """
    doc = inline_references(doc, report)
    transform = None
    # Swagger 2.0 cannot say a value may be null, unless with x-nullable: see input_properties.py
    optional_nullable = is_swagger2(doc.data) and not says_nullable(doc)
    if is_swagger2(doc.data):
        doc, transform = convert_document(doc, report), convert_fragment
    elif writes_swagger2_parameters(doc.data) or declares_authorization(doc.data):
        # 2.0's habits in a 3.x document, read as 2.0 means them (on a copy: the document is the
        # caller's): parameters typed beside their schema, form fields and body parameters; and an
        # Authorization header parameter, which 3.x ignores: where nothing else sets the header,
        # it is the API's credential
        copied = copy.deepcopy(doc.data)
        read_swagger2_parameters(copied, Resolver(doc, Report()), report)
        authorization_parameters(copied, report)
        doc = replace(doc, data=copied)
    data = doc.data
    check_document(data, report)
    resolver = Resolver(doc, report, transform=transform)
    schemas = SchemaNormaliser(resolver, optional_nullable=optional_nullable)
    ctx = Context(resolver, schemas, "x-strapi-config" not in data)
    info: dict[str, Any] = data["info"] if isinstance(data.get("info"), dict) else {}
    title, version = _title(resolver, info), _version(resolver, info)
    servers, server = _servers(resolver, data.get("servers"))
    schemes = _security_schemes(resolver)
    default_security = _requirements(
        resolver, data.get("security"), ROOT.child("security"), schemes
    )
    # the document's prompts belong to the server, not to each operation: kept apart from the defaults
    document_x_mcp = read_level(data, ROOT.child("x-mcp"), "the document", resolver.warn)
    found = without_slash_twins(
        resolver, _operations(ctx, data, default_security, schemes, document_x_mcp)
    )
    # operations that say nothing of security, on themselves or as the document's default
    unsaid = (
        set()
        if "security" in data
        else {op.pointer for op, at in found if not resolver.lookup(at.child("security"))[0]}
    )
    operations = _unrequired_schemes(resolver, _assign_keys(resolver, found), schemes, unsaid)
    operations = _token_endpoints(resolver, operations, schemes)
    inputs, outputs = ctx.schemas.definitions()
    places = {op.pointer: at for op, at in found}
    declared = checks_as_declared(data)
    operations = partial_patches(resolver, operations, inputs, places, declared=declared)
    return Api(
        title=title,
        version=version,
        description=text(info.get("description")),
        openapi_version=str(data.get("openapi", "")),
        servers=servers,
        operations=operations,
        tags=_tags(resolver, data.get("tags"), operations),
        input_schemas=inputs,
        output_schemas=outputs,
        security_schemes=schemes.supported,
        source_sha256=doc.sha256,
        license_name=_member_text(info, "license", "name"),
        license_identifier=_member_text(info, "license", "identifier"),
        license_url=_member_text(info, "license", "url"),
        contact_url=_member_text(info, "contact", "url"),
        terms_of_service=text(info.get("termsOfService")),
        external_docs_url=_member_text(data, "externalDocs", "url"),
        server=server if server is not None and server.variables else None,
        x_mcp_prompts=document_x_mcp.prompts,
    )


def _member_text(parent: dict[str, Any], key: str, member: str) -> str:
    """``parent[key][member]`` when it is a string (``info.license.name``), else ``""``."""
    child = parent.get(key)
    return text(child.get(member)) if isinstance(child, dict) else ""


def _title(resolver: Resolver, info: dict[str, Any]) -> str:
    title = info.get("title")
    if isinstance(title, str) and title.strip():
        return title
    resolver.warn("title-missing", ROOT.child("info"), "info.title is missing or empty")
    return ""


def _version(resolver: Resolver, info: dict[str, Any]) -> str:
    version = info.get("version")
    if isinstance(version, str) and version.strip():
        return version
    if isinstance(version, int | float) and not isinstance(version, bool):
        resolver.warn(
            "version-not-string",
            ROOT.child("info", "version"),
            f"info.version is the number {version}; quote it in YAML to keep it exactly as written",
        )
        return str(version)
    if isinstance(version, str):  # Label Studio's document says version: ''
        pointer = ROOT.child("info", "version")
        resolver.warn("version-missing", pointer, "info.version is empty; using 0.0.0")
    else:
        resolver.warn("version-missing", ROOT.child("info"), "info.version is missing; using 0.0.0")
    return "0.0.0"


def _servers(resolver: Resolver, raw: Any) -> tuple[tuple[str, ...], Server | None]:
    """The servers' URLs (variables at their defaults), the one used first, and that one as declared."""
    declared = _declared_servers(resolver, raw, ROOT.child("servers"))
    if not declared:
        # an info: the plan's base-url-missing warning says what to do about it
        resolver.info(
            "servers-missing", ROOT, "no servers are declared; the base URL must be configured"
        )
        return ("",), None
    urls = [url for url, _ in declared]
    first = _preferred(resolver, urls, ROOT.child("servers"))
    urls.insert(0, urls.pop(first))
    return tuple(urls), declared[first][1]


def _declared_servers(resolver: Resolver, raw: Any, at: Location) -> list[tuple[str, Server]]:
    return [
        (_server_url(resolver, server, at.child(index)), _server(server))
        for index, server in enumerate(raw if isinstance(raw, list) else ())
        if isinstance(server, dict) and isinstance(server.get("url"), str)
    ]


def _preferred(resolver: Resolver, urls: list[str], at: Location) -> int:
    """The index of the server to use: the first, or its https twin when one is declared."""
    secure = "https://" + urls[0].removeprefix("http://")
    if urls[0].startswith("http://") and secure in urls:
        # the same server over TLS: never send credentials in clear text by default
        resolver.info(
            "server-https-preferred",
            at,
            f"the first server {urls[0]} is also declared as {secure}, which is used",
        )
        return urls.index(secure)
    return 0


def _server(server: dict[str, Any]) -> Server:
    """The server as declared, with the variables its URL uses (undeclared ones have no default)."""
    declared = server.get("variables")
    declared = declared if isinstance(declared, dict) else {}
    variables: dict[str, ServerVariable] = {}
    for name in _SERVER_VARIABLE.findall(server["url"]):
        raw = declared.get(name)
        raw = raw if isinstance(raw, dict) else {}
        enum = raw.get("enum")
        default = raw.get("default")
        variables[name] = ServerVariable(
            name=name,
            default=None if default is None or isinstance(default, dict | list) else str(default),
            enum=tuple(str(v) for v in enum if v is not None) if isinstance(enum, list) else (),
            description=text(raw.get("description")),
        )
    return Server(server["url"], tuple(variables.values()))


def _own_server(resolver: Resolver, raw: Any, at: Location) -> Server | None:
    """The server of a path item or an operation (the first declared, or its https twin)."""
    declared = _declared_servers(resolver, raw, at)
    if not declared:
        return None
    server = declared[_preferred(resolver, [url for url, _ in declared], at)][1]
    defaults = {v.name: v.default for v in server.variables if v.default is not None}
    expanded = _SERVER_VARIABLE.sub(lambda m: defaults.get(m.group(1), m.group(0)), server.url)
    # "{host}/v1" with the default https://uploads.example.com is absolute, not relative
    if not expanded.startswith(("http://", "https://")):
        resolver.info(
            "server-relative",
            at,
            f"server URL '{server.url}' is relative: it is resolved against the API's base URL",
        )
    return server


def _other_servers(resolver: Resolver, declared: Any) -> bool:
    """Whether a path's or operation's ``servers`` differ from the document's (only then do they
    become the operation's own server)."""

    def first_url(servers: Any) -> Any:
        if isinstance(servers, list) and servers and isinstance(servers[0], dict):
            return servers[0].get("url")
        return None

    return bool(first_url(declared) != first_url(resolver.lookup(ROOT.child("servers"))[1]))


def _server_url(resolver: Resolver, server: dict[str, Any], at: Location) -> str:
    """The server's URL with each ``{variable}`` replaced by its default."""
    variables = server.get("variables")
    variables = variables if isinstance(variables, dict) else {}

    def substitute(match: re.Match[str]) -> str:
        variable = variables.get(match.group(1))
        if isinstance(variable, dict) and "default" in variable:
            return str(variable["default"])
        resolver.warn(
            "server-variable-missing",
            at,
            f"server variable '{match.group(1)}' has no default; left in the URL",
        )
        return match.group(0)

    return _SERVER_VARIABLE.sub(substitute, server["url"])


def _tags(resolver: Resolver, raw: Any, operations: tuple[Operation, ...]) -> tuple[Tag, ...]:
    tags: dict[str, Tag] = {}
    for index, item in enumerate(raw if isinstance(raw, list) else ()):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            continue
        name = item["name"]
        if name in tags:
            resolver.warn(
                "tag-duplicate", ROOT.child("tags", index), f"tag '{name}' is declared twice"
            )
            continue
        tags[name] = Tag(name=name, description=text(item.get("description")))
    for operation in operations:
        for name in operation.tags:
            tags.setdefault(name, Tag(name=name))
    return tuple(tags.values())


def _security_schemes(resolver: Resolver) -> _Schemes:
    at = ROOT.child("components", "securitySchemes")
    _, raw = resolver.lookup(at)
    supported: dict[str, SecurityScheme] = {}
    unsupported: set[str] = set()
    for name, item in (raw if isinstance(raw, dict) else {}).items():
        resolved = resolver.deref(item, at.child(name))
        scheme = _security_scheme(resolver, name, resolved[0], at.child(name)) if resolved else None
        if scheme is None:
            unsupported.add(name)
        else:
            supported[name] = scheme
    return _Schemes(supported, frozenset(unsupported))


def _security_scheme(
    resolver: Resolver, name: str, value: Any, at: Location
) -> SecurityScheme | None:
    if not isinstance(value, dict):
        resolver.warn("security-unsupported", at, f"security scheme '{name}' is not an object")
        return None
    kind, description = value.get("type"), text(value.get("description"))
    if kind == "apiKey":
        where, parameter = value.get("in"), value.get("name")
        if where in ("header", "query", "cookie") and isinstance(parameter, str) and parameter:
            prefix = authorization_prefix(value) if where == "header" else ""
            if prefix and parameter.lower() == prefix.lower():
                # drf-spectacular writes a custom keyword scheme's word as the header's name
                # (Weblate's "Token" and "Bearer" headers): the word goes before the key in
                # Authorization, where the API reads it; a "Token" header went unread
                resolver.warn(
                    "security-header-is-prefix",
                    at,
                    f"security scheme '{name}' names the header {parameter!r}, the word its "
                    f"description says goes before the key: sent as 'Authorization: {prefix} "
                    "<key>'",
                )
                return ApiKeyScheme(name, where, "Authorization", description, prefix)
            if prefix and parameter.lower() == "authorization":
                return ApiKeyScheme(name, where, parameter, description, prefix)
            return ApiKeyScheme(name, where, parameter, description)
        problem = "needs 'name' and 'in' (header, query or cookie)"
    elif kind == "http":
        scheme = text(value.get("scheme")).lower()
        if scheme == "bearer":
            return HttpBearerScheme(name, description)
        if scheme == "basic":
            return HttpBasicScheme(name, description)
        problem = f"uses HTTP authentication scheme '{scheme}'; only basic and bearer are supported"
    elif kind == "oauth2" and _token_url(value):
        return OAuth2ClientCredentialsScheme(name, _token_url(value), description)
    elif kind == "oauth2" and _token_url(value, "password"):
        return OAuth2PasswordScheme(name, _token_url(value, "password"), description)
    elif kind in ("oauth2", "openIdConnect"):
        resolver.info(
            "security-as-bearer",
            at,
            f"{kind} scheme '{name}' is used as a bearer token: supply an access token obtained"
            " outside the server",
        )
        return HttpBearerScheme(name, description, _authorization_code(value))
    else:
        problem = f"has type {kind!r}, which is not supported" if isinstance(kind, str) else ""
        problem = problem or "has no valid 'type'"
    resolver.warn(
        "security-unsupported",
        at,
        f"security scheme '{name}' {problem}; requirements that need it are dropped",
    )
    return None


def _authorization_code(scheme: dict[str, Any]) -> AuthorizationCodeFlow | None:
    """An ``oauth2`` scheme's ``authorizationCode`` flow, when it names both of its URLs."""
    flows = scheme.get("flows")
    flow = flows.get("authorizationCode") if isinstance(flows, dict) else None
    if not isinstance(flow, dict):
        return None
    urls = [flow.get(key) for key in ("authorizationUrl", "tokenUrl", "refreshUrl")]
    authorize, token, refresh = (u.strip() if isinstance(u, str) else "" for u in urls)
    return AuthorizationCodeFlow(authorize, token, refresh) if authorize and token else None


def _token_url(scheme: dict[str, Any], flow_name: str = "clientCredentials") -> str:
    """The ``tokenUrl`` of an ``oauth2`` scheme's ``flow_name`` flow, or ``""``."""
    flows = scheme.get("flows")
    flow = flows.get(flow_name) if isinstance(flows, dict) else None
    url = flow.get("tokenUrl") if isinstance(flow, dict) else None
    return url.strip() if isinstance(url, str) else ""


def _requirements(resolver: Resolver, raw: Any, at: Location, schemes: _Schemes) -> Security:
    """Alternatives of scheme names; ``()`` among them means anonymous access is allowed.

    An alternative that needs a scheme we cannot use can never be satisfied, so it is dropped (rather
    than shortened, which would turn it into anonymous access).
    """
    alternatives: list[tuple[str, ...]] = []
    requirements = [r for r in (raw if isinstance(raw, list) else ()) if isinstance(r, dict)]
    for index, requirement in enumerate(requirements):
        usable = True
        for name in requirement:
            if name in schemes.unsupported:  # reported once, with the scheme
                usable = False
            elif name not in schemes.supported:
                usable = False
                resolver.warn(
                    "security-unknown",
                    at.child(index),
                    f"security scheme '{name}' is not declared in components.securitySchemes",
                )
        if usable and tuple(requirement) not in alternatives:
            alternatives.append(tuple(requirement))
    if requirements and not alternatives:
        resolver.warn(
            "security-dropped",
            at,
            "no security requirement can be met with the supported schemes; requests are sent"
            " without credentials",
        )
    return tuple(alternatives)


def _operations(
    ctx: Context,
    data: dict[str, Any],
    default_security: Security,
    schemes: _Schemes,
    document_x_mcp: XMcpLevel,
) -> list[tuple[Operation, Location]]:
    declared = data["paths"] if isinstance(data.get("paths"), dict) else {}
    # the Paths Object takes extensions (apicurio's x-codegen-contextRoot): no path of them
    paths: dict[str, Any] = {k: v for k, v in declared.items() if not k.startswith("x-")}
    resolver = ctx.resolver
    if not paths:
        if data.get("webhooks"):
            resolver.warn(
                "webhooks-only",
                ROOT.child("webhooks"),
                "the document describes only webhooks (no paths); no operations are generated",
            )
        else:
            resolver.warn("no-operations", ROOT, "the document has no paths; nothing to generate")
    elif data.get("webhooks"):
        resolver.info("webhooks-ignored", ROOT.child("webhooks"), "webhooks are not generated")
    found: list[tuple[Operation, Location]] = []
    for raw_path, item in paths.items():
        item_at = ROOT.child("paths", raw_path)
        path, whole_path = _clean_path(resolver, raw_path, item_at)
        resolved = resolver.deref(item, item_at, merge_siblings=True)
        if resolved is None or not isinstance(resolved[0], dict):
            resolver.warn("op-skipped", item_at, "path item cannot be read; its operations skipped")
            continue
        value, target = resolved
        # keys laid over a referenced path item live where the $ref is, the others in the target
        local = set(item) if isinstance(item, dict) and target != item_at else set()

        def where(
            key: str, local: set[str] = local, here: Location = item_at, there: Location = target
        ) -> Location:
            return (here if key in local else there).child(key)

        path_server = (
            _own_server(resolver, value["servers"], where("servers"))
            if value.get("servers") and _other_servers(resolver, value["servers"])
            else None
        )
        path_params = (value.get("parameters"), where("parameters"))
        inherited = (
            document_x_mcp,
            read_level(value, where("x-mcp"), "a path item", resolver.warn),
        )
        for method in METHODS:
            if method not in value:
                continue
            op_at = where(method)
            try:
                operation = _operation(
                    ctx,
                    value[method],
                    op_at,
                    method,
                    path,
                    path_params,
                    (default_security, schemes),
                    inherited,
                    path_server=path_server,
                    whole_path=whole_path,
                )
            except SkipOperation as skip:
                resolver.warn("op-skipped", op_at, f"operation skipped: {skip.reason}")
            except (RecursionError, LookupError, TypeError, ValueError, AttributeError) as exc:
                # a document shape this parser did not foresee must not stop the other operations
                resolver.warn(
                    "op-skipped",
                    op_at,
                    f"operation skipped: unexpected shape ({type(exc).__name__})",
                )
            except Exception as exc:  # a bug of ours: the other operations still go on
                detail = " ".join(str(exc).split())[:200]
                resolver.warn(
                    "op-skipped",
                    op_at,
                    f"operation skipped: internal error ({type(exc).__name__}: {detail});"
                    " please report",
                )
            else:
                found.append((operation, op_at))
    return found


def _clean_path(resolver: Resolver, raw_path: str, at: Location) -> tuple[str, str | None]:
    """The path to call, starting with ``/``, and the parameter it starts with when the key is a
    path parameter followed by more (``{task_href}add_role/``): that parameter holds a path."""
    path = raw_path
    cut = min((i for i in (path.find("?"), path.find("#")) if i >= 0), default=-1)
    if cut >= 0:
        path = path[:cut]
        resolver.warn(
            "path-key-query", at, f"path '{raw_path}' contains a query or fragment; using '{path}'"
        )
    if path.startswith("/"):
        return path, None
    leading = _LEADING_VARIABLE.match(path)
    path = "/" + path
    if leading is not None:
        # Pulp's hrefs ("/pulp/api/v3/tasks/<id>/"): what the API returns is the path to call
        resolver.info(
            "path-key-whole-path",
            at,
            f"path '{raw_path}' starts with the parameter '{leading.group(1)}': its value is taken "
            "as a path of the API and sent with its slashes",
        )
        return path, leading.group(1)
    resolver.warn(
        "path-key-invalid", at, f"path '{raw_path}' does not start with '/'; using '{path}'"
    )
    return path, None


def _operation(
    ctx: Context,
    raw: Any,
    at: Location,
    method: str,
    path: str,
    path_params: tuple[Any, Location],
    security_context: tuple[Security, _Schemes],
    inherited: tuple[XMcpLevel, ...],
    *,
    path_server: Server | None = None,
    whole_path: str | None = None,
) -> Operation:
    if not isinstance(raw, dict):
        raise SkipOperation("the operation is not an object")
    server = path_server
    if raw.get("servers"):  # the operation's own servers replace its path's
        own = _other_servers(ctx.resolver, raw["servers"])
        server = _own_server(ctx.resolver, raw["servers"], at.child("servers")) if own else None
    operation_id = raw.get("operationId")
    if isinstance(operation_id, int | float) and not isinstance(operation_id, bool):
        operation_id = str(operation_id)
    body = None
    if "requestBody" in raw:
        body = request_body(ctx, raw["requestBody"], at.child("requestBody"), path)
    security, schemes = security_context
    if "security" in raw:
        security = _requirements(ctx.resolver, raw["security"], at.child("security"), schemes)
    declared_security = (
        raw["security"] if "security" in raw else ctx.resolver.lookup(ROOT.child("security"))[1]
    )
    own_x_mcp = read_level(raw, at.child("x-mcp"), "an operation", ctx.resolver.warn)
    x_mcp, x_mcp_origins = merge((*inherited, own_x_mcp))
    tags = raw.get("tags")
    own_params = (raw.get("parameters"), at.child("parameters"))
    params, media = parameters(ctx, path_params, own_params, path, at)
    if whole_path is not None:
        params = tuple(
            replace(p, whole_path=True) if (p.location, p.name) == ("path", whole_path) else p
            for p in params
        )
    if body is not None and "content-type" in media:
        body = declared_content_type(ctx, body, media["content-type"], at)
    params, security = credential_parameters(ctx, params, security, schemes.supported, at)
    return Operation(
        key="",
        operation_id=operation_id if isinstance(operation_id, str) and operation_id else None,
        method=cast(HttpMethod, method.upper()),
        path=path,
        pointer=at.pointer,
        summary=text(raw.get("summary")),
        description=text(raw.get("description")),
        tags=tuple(str(t) for t in tags if isinstance(t, str)) if isinstance(tags, list) else (),
        deprecated=raw.get("deprecated") is True,
        parameters=params,
        body=body,
        response=response(ctx, raw.get("responses"), at.child("responses")),
        redirects=documented_redirects(raw.get("responses")),
        switches_protocols=switches_protocols(raw.get("responses")),
        accept=media.get("accept", ()),
        bare_content_type=media.get("content-type", ("",))[0],
        security=security,
        x_mcp=x_mcp,
        x_mcp_origins=x_mcp_origins,
        links=_links(ctx.resolver, raw.get("responses"), at.child("responses")),
        scopes=_scopes(declared_security, security, schemes),
        server=server,
    )


def _scopes(
    declared: Any, usable: Security, schemes: _Schemes
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per OAuth2 scheme the server obtains tokens for (client credentials, a password, or an
    authorization code flow that signs users in), the scopes its usable requirements list."""
    found: dict[str, dict[str, None]] = {}
    for requirement in declared if isinstance(declared, list) else ():
        if not isinstance(requirement, dict) or tuple(requirement) not in usable:
            continue
        for name, scopes in requirement.items():
            scheme = schemes.supported.get(name)
            signs_in = isinstance(scheme, HttpBearerScheme) and scheme.authorization_code
            fetched = isinstance(scheme, OAuth2ClientCredentialsScheme | OAuth2PasswordScheme)
            if fetched or signs_in:
                wanted = found.setdefault(name, {})
                for scope in scopes if isinstance(scopes, list) else ():
                    if isinstance(scope, str) and scope:
                        wanted[scope] = None
    return tuple((name, tuple(scopes)) for name, scopes in found.items())


def _links(resolver: Resolver, responses: Any, at: Location) -> tuple[Link, ...]:
    """The Link Objects of the success responses (2xx; ``default`` when there is none)."""
    if not isinstance(responses, dict):
        return ()
    codes = [str(c) for c in responses if str(c)[:1] == "2" and len(str(c)) == 3]
    found: list[Link] = []
    for code in codes or [c for c in responses if c == "default"]:
        resolved = resolver.deref(responses[code], at.child(code))
        if resolved is None or not isinstance(resolved[0], dict):
            continue
        value, loc = resolved
        links = value.get("links")
        for name, raw in (links if isinstance(links, dict) else {}).items():
            link = _link(resolver, str(name), code, raw, loc.child("links", name))
            if link is not None:
                found.append(link)
    return tuple(found)


def _link(resolver: Resolver, name: str, status: str, raw: Any, at: Location) -> Link | None:
    resolved = resolver.deref(raw, at)
    if resolved is None or not isinstance(resolved[0], dict):
        return None
    link, link_at = resolved
    target_id, target_ref = link.get("operationId"), link.get("operationRef")
    target_id = target_id if isinstance(target_id, str) else ""
    target_ref = target_ref if isinstance(target_ref, str) else ""
    if not target_id and not target_ref:
        resolver.warn(
            "link-invalid", link_at, f"link '{name}' names no operationId or operationRef"
        )
        return None
    parameters = link.get("parameters")
    return Link(
        name=name,
        status=status,
        pointer=link_at.pointer,
        operation_id=target_id,
        operation_ref=target_ref,
        parameters=tuple(
            (str(k), v) for k, v in (parameters if isinstance(parameters, dict) else {}).items()
        ),
        request_body=link.get("requestBody"),
        description=text(link.get("description")),
    )


def _unrequired_schemes(
    resolver: Resolver, operations: tuple[Operation, ...], schemes: _Schemes, unsaid: set[str]
) -> tuple[Operation, ...]:
    """Operations that may take the credentials of schemes the document declares and does not
    require of them.

    A document that declares security schemes and requires none (Airflow 2's `security: []`, its
    API's authentication being the deployment's choice; 177 of the 2,639 APIs.guru documents) had
    every call sent without credentials, the variables its README names set or not. Each operation
    then takes any one of the schemes, or none: the credentials set go, and a call goes without them
    when none are set, as the document says it may.

    A document that requires a scheme of some operations and says nothing of security for the
    others, neither on them nor as the document's default (Directus's, which marks 3 of its 129
    operations; 83 APIs.guru documents, 1,606 operations, InfluxDB's 194 of 197 among them), does the
    same for those it says nothing of: they were sent without the credentials the user set and
    refused. An operation that says `security: []` itself, or inherits it, stays anonymous.
    """
    names = tuple(schemes.supported)
    if not names or not operations:
        return operations
    # the schemes the operations require most go first, when several are set
    uses = Counter(name for op in operations for alt in op.security for name in alt)
    names = tuple(sorted(names, key=lambda name: -uses[name]))
    alternatives = (*((name,) for name in names), ())
    if not uses:
        resolver.info(
            "security-unrequired",
            ROOT.child("components", "securitySchemes"),
            f"no operation requires the security schemes the document declares ({', '.join(names)}):"
            " their credentials are sent when they are set, and calls go without them otherwise",
        )
        return tuple(replace(op, security=alternatives) for op in operations)
    taking = {op.pointer for op in operations if op.pointer in unsaid and not op.security}
    if not taking:
        return operations
    resolver.info(
        "security-unsaid",
        ROOT.child("components", "securitySchemes"),
        f"{len(taking)} of {len(operations)} operations say nothing of security, and the document "
        f"has no default: they take the credentials of any declared scheme ({', '.join(names)}) "
        "when they are set, and go without them otherwise",
    )
    return tuple(
        replace(op, security=alternatives) if op.pointer in taking else op for op in operations
    )


def _token_endpoints(
    resolver: Resolver, operations: tuple[Operation, ...], schemes: _Schemes
) -> tuple[Operation, ...]:
    """The operations that are a scheme's token endpoint, without that scheme: a sign-in does not
    first sign in. ZenML's ``POST /api/v1/login`` says nothing of security, so it took its own
    password scheme: a wrong password configured made the sign-in a tool could do refused before it
    was sent, and a wrong password given to it blamed the one configured."""
    endpoints = {
        name: "/" + urlsplit(scheme.token_url).path.strip("/")
        for name, scheme in schemes.supported.items()
        if isinstance(scheme, OAuth2ClientCredentialsScheme | OAuth2PasswordScheme)
    }
    if not endpoints:
        return operations
    found: list[Operation] = []
    for op in operations:
        path = "/" + op.path.strip("/")
        own = {
            name
            for name, url in endpoints.items()
            if op.method == "POST" and (url == path or (url.endswith(path) and path != "/"))
        }
        if own and any(own.intersection(alt) for alt in op.security):
            kept = tuple(alt for alt in op.security if not own.intersection(alt))
            found.append(replace(op, security=kept or ((),)))
            resolver.info(
                "security-token-endpoint",
                ROOT.child("paths", op.path, op.method.lower()),
                f"the operation is the token endpoint of {', '.join(sorted(own))}: it is sent"
                " without that scheme's token",
            )
        else:
            found.append(op)
    return tuple(found)


def _assign_keys(
    resolver: Resolver, operations: list[tuple[Operation, Location]]
) -> tuple[Operation, ...]:
    """operationId when unique; else a derived or suffixed key, deterministic, with a diagnostic."""
    declared = {op.operation_id for op, _ in operations if op.operation_id}
    owners: dict[str, str] = {}
    result: list[Operation] = []
    for op, at in operations:
        base = op.operation_id or f"{op.method.lower()}_{op.path}"
        key, suffix = base, 2
        while key in owners or (key != op.operation_id and key in declared):
            key, suffix = f"{base}_{suffix}", suffix + 1
        if op.operation_id is None:
            resolver.info(
                "operation-id-missing",
                at,
                f"no operationId; the operation's key is '{key}' (from its method and path)",
            )
        elif key != base:
            resolver.warn(
                "operation-id-duplicate",
                at,
                f"operationId '{base}' is already used at {owners[base]}; this operation's key"
                f" is '{key}'",
            )
        owners[key] = op.pointer
        result.append(replace(op, key=key))
    return tuple(result)
