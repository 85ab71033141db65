"""The runtime's exception tree (``templates/runtime/errors.py``): one module defines every public
exception, each is still importable from the module that used to define it (generated code imports
``typed_client.ApiError`` and ``hooks.ToolError``), the ``ValueError``s callers catch stay
``ValueError``s and nothing else becomes one, and the docstring's tree names every class."""

from __future__ import annotations

import ast
import builtins
import importlib
from pathlib import Path

import pytest

from templates.runtime import errors
from templates.runtime.upstream.client import UpstreamResponse

RUNTIME = Path(__file__).resolve().parents[2] / "templates" / "runtime"

# where each class was defined before errors.py; code outside the runtime imports it from there
OLD_HOMES = {
    "ask.elicitation": ["AnswerError"],
    "ask.interaction": ["AskError"],
    "auth.bearer": ["CryptographyUnavailable"],
    "auth.jwks": ["KeysUnavailable"],
    "auth.jwt": ["JwtError"],
    "catalog.model": ["CatalogError"],
    "hooks": ["DefinitionError", "ToolError"],
    "protocol.calls": ["ResourceNotFound"],
    "protocol.dynamic": ["ToolModeError"],
    "protocol.jsonrpc": ["JsonRpcError"],
    "protocol.projection": ["SelectionError"],
    "protocol.request_state": ["StateError"],
    "protocol.results": ["UpstreamStatusError"],
    "server": ["CustomCodeError", "SettingsError"],
    "transports.http_serve": ["HttpUnavailable"],
    "typed_client": ["ApiError"],
    "upstream.client": ["UpstreamError"],
    "upstream.credentials": ["HeaderError"],
    "upstream.decoding": ["TooLarge"],
    "upstream.encoding": ["EncodingRefused"],
    "upstream.multipart": ["MultipartError"],
    "upstream.oauth": ["TokenError"],
    "upstream.resilience": ["PolicyError", "Refused"],
    "peruser.store": ["TokenStoreError"],
    "peruser.oauth_code": ["OAuthCodeError"],
    "jsonschema": ["SchemaError"],
}
# callers catch these as ValueError (settings parsers, argument encoding, answers, multipart bodies)
VALUE_ERRORS = {
    "AnswerError",
    "ConfigurationError",
    "CryptographyUnavailable",
    "DefinitionError",
    "EncodingRefused",
    "HeaderError",
    "MultipartError",
    "PolicyError",
    "ToolModeError",
}


def _public_exception_classes() -> set[tuple[str, str]]:
    """(file relative to the runtime, class name) of every public exception class defined in it,
    told from the source: a class whose base is a built-in exception, another exception class of
    the runtime, or a name that says it is one (``httpx.HTTPError``)."""
    classes: list[tuple[str, str, list[str]]] = []
    for path in sorted(RUNTIME.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), filename=str(path))
        rel = path.relative_to(RUNTIME).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(base).rpartition(".")[2] for base in node.bases]
                classes.append((rel, node.name, bases))
    known = {
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    }
    found: set[tuple[str, str]] = set()
    while True:
        new = {
            (rel, name)
            for rel, name, bases in classes
            if (rel, name) not in found
            and any(b in known or b.endswith(("Error", "Exception")) for b in bases)
        }
        if not new:
            break
        found |= new
        known |= {name for _, name in new}
    return {(rel, name) for rel, name in found if not name.startswith("_")}


def test_every_public_exception_class_is_defined_in_errors_py() -> None:
    outside = {item for item in _public_exception_classes() if item[0] != "errors.py"}
    assert outside == set()
    defined = {name for rel, name in _public_exception_classes() if rel == "errors.py"}
    assert defined == set(errors.__all__)


@pytest.mark.parametrize(("module", "names"), sorted(OLD_HOMES.items()))
def test_each_class_is_still_importable_from_its_old_module(module: str, names: list[str]) -> None:
    old = importlib.import_module(f"templates.runtime.{module}")
    for name in names:
        assert getattr(old, name) is getattr(errors, name)


def test_the_old_homes_cover_every_class_but_the_branches() -> None:
    moved = {name for names in OLD_HOMES.values() for name in names}
    branches = {
        "ServerError",
        "StartupError",
        "ConfigurationError",
        "McpRequestError",
        "InteractionError",
        "ApiCallError",
        "InboundAuthError",
    }
    assert moved | branches == set(errors.__all__)
    assert not moved & branches


def test_value_errors_stay_value_errors_and_no_other_class_becomes_one() -> None:
    classes = {name: getattr(errors, name) for name in errors.__all__}
    assert {name for name, cls in classes.items() if issubclass(cls, ValueError)} == VALUE_ERRORS


def test_every_class_is_under_the_root_and_keeps_its_old_base() -> None:
    for name in errors.__all__:
        assert issubclass(getattr(errors, name), errors.ServerError), name
    assert issubclass(errors.UpstreamStatusError, errors.UpstreamError)
    assert issubclass(errors.CustomCodeError, errors.SettingsError)


def test_start_up_failures_are_start_up_errors() -> None:
    # what the command line reports as one line and exit status 1, directly or re-raised
    for cls in (
        errors.SettingsError,
        errors.CustomCodeError,
        errors.CatalogError,
        errors.HttpUnavailable,
        errors.PolicyError,
        errors.ToolModeError,
        errors.HeaderError,
        errors.CryptographyUnavailable,
        errors.DefinitionError,
    ):
        assert issubclass(cls, errors.StartupError), cls.__name__
    for cls in (errors.UpstreamError, errors.JsonRpcError, errors.JwtError, errors.ToolError):
        assert not issubclass(cls, errors.StartupError), cls.__name__


def test_the_docstring_tree_names_every_class() -> None:
    doc = errors.__doc__ or ""
    for name in errors.__all__:
        assert f" {name} " in doc or f" {name}\n" in doc, name


def test_errors_py_imports_no_runtime_module_at_run_time() -> None:
    tree = ast.parse((RUNTIME / "errors.py").read_text("utf-8"))
    imported = [
        node.module
        for node in tree.body  # a TYPE_CHECKING block is an ``if``, not a top-level import
        if isinstance(node, ast.ImportFrom)
    ]
    assert imported == ["__future__", "typing"]
    assert not any(isinstance(node, ast.Import) for node in tree.body)


def test_constructors_and_attributes_are_unchanged() -> None:
    error = errors.JsonRpcError(-32602, "bad", {"uri": "x"})
    assert (error.code, error.message, error.data, str(error)) == (
        -32602,
        "bad",
        {"uri": "x"},
        "bad",
    )
    assert error.to_error() == {"code": -32602, "message": "bad", "data": {"uri": "x"}}
    missing = errors.ResourceNotFound("docs://a")
    assert (missing.uri, str(missing)) == ("docs://a", "Resource not found: docs://a")
    status = errors.UpstreamStatusError(503, "HTTP 503")
    assert (status.status, str(status)) == (503, "HTTP 503")
    response = UpstreamResponse(404, "Not Found", "text/plain", b"no pet 7", "http://api/pets/7")
    api = errors.ApiError(response)
    assert (api.status, api.response, str(api)) == (404, response, "404 Not Found: no pet 7")
