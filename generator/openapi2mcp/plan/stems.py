"""The names FastAPI and drf-spectacular documents give their operations, as tool names' stems.

FastAPI's operationIds repeat the path and method after the function's name
(``create_variable_variables__post``): the function's name is the stem, and functions of one name
in several routers are told apart (``function_names``). drf-spectacular's repeat a mount segment
every path begins with (``api_projects_list``): it is left out (``without_path_prefix``).
"""

from __future__ import annotations

import re
from collections import Counter
from urllib.parse import urlsplit

from ..ir.model import Api, Operation
from ..ir.operation_parts import path_variables
from . import naming

__all__ = [
    "bare_verbs",
    "function_names",
    "server_named",
    "without_id_prefix",
    "without_path_prefix",
]

_VERSION_SEGMENT = re.compile(r"v\d+(?:(?:alpha|beta)\d*)?", re.I)


def function_names(api: Api) -> dict[str, str]:
    """Each operation whose operationId FastAPI made, by key: its function's name. Functions of
    two routers with one name are told apart by the path's words the name does not say and the
    other paths do not share (``create_work_queue`` at ``/work_queues/`` and
    ``create_work_queue_work_pools`` at ``/work_pools/{name}/queues``), then by their path
    variables (``list_model_versions_by_model_name_or_id``), then by their versions
    (``model_list``, ``model_list_v1``), then by their methods (one function serving several:
    ``service_proxy_get``, ``service_proxy_post``); those that leaves alike keep their
    operationIds."""
    groups: dict[str, list[tuple[Operation, str]]] = {}
    for op in api.operations:
        stem = naming.function_name(op.operation_id, op.path) if op.operation_id else ""
        if stem and all(_MOUNT_SEGMENT.fullmatch(w) for w in naming.words(stem)):
            # a function named only "api" (Glances' _api at /api/4/{plugin}) names nothing: its
            # method and the path's words do (get_plugin)
            said = [
                w
                for w in naming.words(op.path)
                if not _MOUNT_SEGMENT.fullmatch(w) and not w.isdigit()
            ]
            stem = "_".join([op.method.lower(), *said]) if said else stem
        if stem:
            groups.setdefault(naming.tool_name(stem), []).append((op, stem))
    found: dict[str, str] = {}
    for members in groups.values():
        if len(members) == 1:
            ((op, stem),) = members
            found[op.key] = stem
            continue
        extra = [_unsaid_segments(op.path, stem) for op, stem in members]
        shared = set.intersection(*(set(words) for words in extra))
        named = [
            "_".join([stem, *(w for w in words if w not in shared)])
            for (_, stem), words in zip(members, extra, strict=True)
        ]
        ops = [op for op, _ in members]
        # a list nested under its owner and the list of all (ZenML's list_model_versions at
        # /model_versions and /models/{model_name_or_id}/model_versions): the owner's id; one
        # route with and without a version (LiteLLM's model_list at /models and /v1/models):
        # the version; one function for several methods (FastAPI's api_route: dstack's
        # service proxy, GET, POST, PUT... of one path): the method
        by_owner = [
            _by_owners(name, path_variables(op.path)) for op, name in zip(ops, named, strict=True)
        ]
        versioned = [_versioned(op, name) for op, name in zip(ops, named, strict=True)]
        # both (Open WebUI's get_models at /openai/models/{url_idx} and /openai/models, and at
        # /api/v1/models and /api/models)
        owned_versioned = [_versioned(op, name) for op, name in zip(ops, by_owner, strict=True)]
        by_method = [f"{name}_{op.method.lower()}" for op, name in zip(ops, versioned, strict=True)]
        for candidate in (named, by_owner, versioned, owned_versioned, by_method):
            counts = Counter(map(naming.tool_name, candidate))
            if len(counts) == len(candidate):
                break
        # those still alike keep their operationIds, the others their names
        found.update(
            (op.key, name)
            for op, name in zip(ops, candidate, strict=True)
            if counts[naming.tool_name(name)] == 1
        )
    return found


def _versioned(op: Operation, name: str) -> str:
    """``name`` with the version segments of ``op``'s path (``model_list_v1`` at ``/v1/models``)."""
    return "_".join([name, *(s for s in op.path.split("/") if _VERSION_SEGMENT.fullmatch(s))])


def _by_owners(name: str, owners: list[str]) -> str:
    """``name`` told apart by its path variables, those it does not say already after its "by"
    (Open WebUI's ``get_file_content_by_id`` at ``/files/{id}/content/{file_name}``:
    ``get_file_content_by_id_and_file_name``, not ``…_by_id_by_id_and_file_name``)."""
    said = naming.words(name)
    if "by" not in said:
        return f"{name}_by_{'_and_'.join(owners)}" if owners else name
    after = set(said[said.index("by") + 1 :])
    unsaid = [owner for owner in owners if not set(naming.words(owner)) <= after]
    return f"{name}_and_{'_and_'.join(unsaid)}" if unsaid else name


def without_path_prefix(api: Api) -> dict[str, str]:
    """The operationIds without the words of the first path segment that (nearly) every path and
    its operationId begin with: drf-spectacular names ``/api/projects/`` ``api_projects_list``, and
    "api" then says nothing about any operation (``projects_list``). Nine in ten operations must
    share it; ``{}`` when they do not."""
    firsts = Counter(_first_segment(op.path) for op in api.operations)
    first, count = firsts.most_common(1)[0] if firsts else ("", 0)
    # only a segment that names no resource: /todos/ with todos_list and todos_create must keep it
    prefix = naming.words(first) if _MOUNT_SEGMENT.fullmatch(first) else []
    if not prefix or count < max(2, 0.9 * len(api.operations)):
        return {}
    stripped: dict[str, str] = {}
    for op in api.operations:
        said = naming.words(op.operation_id or "")
        if (
            _first_segment(op.path) == first
            and said[: len(prefix)] == prefix
            and said[len(prefix) :]
        ):
            stripped[op.key] = "_".join(said[len(prefix) :])
    return stripped if len(stripped) >= 0.9 * len(api.operations) else {}


def bare_verbs(api: Api) -> dict[str, str]:
    """Names for operationIds that are one word several operations share (Karrio's ``$list``,
    ``&&&list`` and eleven more are all ``list``; the tools were ``list``, ``list_2`` …
    ``list_13``): the word and the literal segments of the operation's path, without its mount
    and version (``list_addresses``, ``retrieve_addresses``, ``list_batches_operations``). Where
    the paths do not tell them apart either, the names stay as they were."""
    groups: dict[str, list[Operation]] = {}
    for op in api.operations:
        word = naming.tool_name(op.operation_id) if op.operation_id else ""
        if word and len(naming.words(word)) == 1:
            groups.setdefault(word, []).append(op)
    found: dict[str, str] = {}
    for word, ops in groups.items():
        if len(ops) < 2:
            continue
        named = {op.key: "_".join([word, *_path_words(op.path, {word})]) for op in ops}
        if len(set(named.values())) == len(named):
            found.update(named)
    return found


def _path_words(path: str, said: set[str]) -> list[str]:
    """The words of ``path``'s literal segments, without its mount, its version and ``said``."""
    words: list[str] = []
    for segment in path.split("/"):
        literal = re.sub(r"\{[^}]*\}", " ", segment)
        if not literal.strip(" ._-") or _MOUNT_SEGMENT.fullmatch(literal):
            continue
        words += [w for w in naming.words(literal) if w not in said and w not in words]
    return words


def without_id_prefix(api: Api) -> dict[str, str]:
    """The operationIds without the words (nearly) every one begins with, up to a mount and its
    version: django-ninja names ArchiveBox's operations ``archivebox_api_v1_core_get_snapshot``,
    and ``archivebox_api_v1`` says nothing about any of them (``core_get_snapshot``). Nine in
    ten operations must share it, and what is left of each must still be a name."""
    said = [naming.words(op.operation_id or "") for op in api.operations]
    if len(said) < 2 or any(
        op.operation_id and naming.function_name(op.operation_id, op.path) for op in api.operations
    ):
        return {}  # FastAPI's ids are its functions' names (LNbits' api_payment): as they are
    prefix: tuple[str, ...] = ()
    common: tuple[str, ...] = ()
    for size in range(1, 8):
        found, count = Counter(tuple(words[:size]) for words in said).most_common(1)[0]
        if len(found) < size or count < 0.9 * len(said):
            break
        common = found
    # through the last word that mounts an API (api, rest), and the version after it (v1): a
    # version alone (Slurm's slurm_v0_0_38_) may be the API's own name for its release
    mounts = [i for i, word in enumerate(common) if _API_WORD.fullmatch(word)]
    if mounts:
        cut = mounts[-1] + 1
        while cut < len(common) and _VERSION_WORD.fullmatch(common[cut]):
            cut += 1
        prefix = common[:cut]
    if not prefix:
        return {}
    stripped = {
        op.key: "_".join(words[len(prefix) :])
        for op, words in zip(api.operations, said, strict=True)
        if tuple(words[: len(prefix)]) == prefix and words[len(prefix) :]
    }
    return stripped if len(stripped) >= 0.9 * len(api.operations) else {}


def server_named(api: Api) -> dict[str, str]:
    """Names for operations without an operationId whose path names nothing (``/``, ``/{id}``):
    the thing the server's URL ends with says what they are about. Signal K's notifications API
    is served at ``/signalk/v2/api/notifications`` with paths ``/`` and ``/{id}``, whose tools
    were ``get``, ``post`` and ``get_id``; now ``get_notifications``, ``get_notifications_id``."""
    path = urlsplit(api.servers[0]).path if api.servers else ""
    words = [s for s in path.split("/") if s and not s.startswith("{")]
    thing = next((s for s in reversed(words) if not _MOUNT_SEGMENT.fullmatch(s)), "")
    if not thing:
        return {}
    return {
        op.key: f"{op.method.lower()} {thing}{op.path.rstrip('/')}"
        for op in api.operations
        if not op.operation_id and all(s.startswith("{") for s in op.path.split("/") if s)
    }


_API_WORD = re.compile(r"api|apis|rest|webapi", re.IGNORECASE)
_VERSION_WORD = re.compile(r"v?\d+", re.IGNORECASE)
_MOUNT_SEGMENT = re.compile(r"(?:api|apis|rest|webapi|ws|public|services?|v\d+)", re.IGNORECASE)


def _first_segment(path: str) -> str:
    return path.strip("/").split("/", 1)[0]


def _unsaid_segments(path: str, stem: str) -> list[str]:
    """The literal segments of ``path`` with a word ``stem`` does not say (a version says none):
    ``/v3/projects/{id}/nodes/{node}/files`` for ``get_file``: projects, nodes."""
    said = {word.rstrip("s") for word in naming.words(stem)}
    return [
        segment
        for segment in path.split("/")
        if segment
        and not segment.startswith("{")
        and not _VERSION_SEGMENT.fullmatch(segment)
        and any(word.rstrip("s") not in said for word in naming.words(segment))
    ]
