"""User-defined prompts end to end: ``openapi2mcp.toml`` → plan → catalog → ``prompts/get``.

A config prompt is one ``template`` or a list of ``messages`` with roles and text, image (a file next
to the config, embedded as base64 at generation time) or embedded-resource content. The runtime
only concatenates parts, so argument values are never interpreted; config mistakes are errors that
name the key.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from openapi2mcp.config import CONFIG_NAME, parse_config
from openapi2mcp.diagnostics import GenerationError, Report
from openapi2mcp.generate import GenerateOptions, plan_source
from openapi2mcp.render.catalog import build_catalog
from templates.runtime.catalog.model import Catalog
from templates.runtime.protocol.dispatch import Dispatcher, LegacySession
from templates.runtime.upstream.client import UpstreamResponse
from tests.kit.meta import meta

META = meta()
SPEC = """\
openapi: 3.1.0
info: {title: Zoo, version: 1.0.0}
servers: [{url: 'https://zoo.example/api'}]
paths:
  /animals:
    get:
      operationId: listAnimals
      responses: {'200': {description: ok, content: {application/json: {schema: {type: array}}}}}
"""
CONFIG = """\
[[prompts]]
name = "show_animal"
description = "Show a picture, then ask about it"
[[prompts.arguments]]
name = "animal"
required = true
values = ["cat", "camel", "dog"]
[[prompts.messages]]
image = { file = "pictures/dot.png" }
[[prompts.messages]]
role = "assistant"
text = "That is a {animal}. {{What}} next?"
[[prompts.messages]]
resource = { uri = "zoo://animals/{animal}", text = "Facts about {animal}" }

[[prompts]]
name = "greet"
description = "Say hello"
template = "Hello {who}!"
[[prompts.arguments]]
name = "who"
"""
PICTURE = b"\x89PNG\r\n\x1a\n not really an image, but bytes all the same"


class NoUpstream:
    async def call(
        self,
        operation: str,
        arguments: Mapping[str, Any],
        *,
        user: Mapping[str, str] | None = None,
    ) -> UpstreamResponse:
        raise AssertionError("prompts never call the API")


def generated_catalog(folder: Path, config: str = CONFIG) -> Catalog:
    (folder / "pictures").mkdir(exist_ok=True)
    (folder / "pictures" / "dot.png").write_bytes(PICTURE)
    (folder / "openapi.yaml").write_text(SPEC, encoding="utf-8")
    (folder / CONFIG_NAME).write_text(config, encoding="utf-8")
    plan, _ = plan_source(str(folder / "openapi.yaml"), GenerateOptions())
    return build_catalog(plan, Report())  # type: ignore[return-value]


async def get(
    catalog: Catalog, name: str, session: LegacySession | None = None, **arguments: str
) -> dict[str, Any]:
    params: dict[str, Any] = {"name": name, "arguments": arguments}
    if session is None:
        params["_meta"] = META

    async def no_notifications(message: dict[str, Any]) -> None:
        raise AssertionError(message)

    message = {"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": params}
    reply = await Dispatcher(catalog, NoUpstream()).handle(message, session, no_notifications)
    assert reply is not None
    return reply


async def test_messages_keep_roles_and_content_types(tmp_path: Path) -> None:
    reply = await get(generated_catalog(tmp_path), "show_animal", animal="{cat}")
    assert reply["result"]["description"] == "Show a picture, then ask about it"
    assert reply["result"]["messages"] == [
        {
            "role": "user",
            "content": {
                "type": "image",
                "data": base64.b64encode(PICTURE).decode(),
                "mimeType": "image/png",
            },
        },
        {"role": "assistant", "content": {"type": "text", "text": "That is a {cat}. {What} next?"}},
        {
            "role": "user",
            "content": {
                "type": "resource",
                "resource": {
                    "uri": "zoo://animals/{cat}",
                    "mimeType": "text/plain",
                    "text": "Facts about {cat}",
                },
            },
        },
    ]


async def test_legacy_sessions_get_the_same_messages(tmp_path: Path) -> None:
    catalog = generated_catalog(tmp_path)
    legacy = await get(catalog, "show_animal", LegacySession("2025-03-26", True), animal="dog")
    modern = await get(catalog, "show_animal", animal="dog")
    assert legacy["result"]["messages"] == modern["result"]["messages"]
    assert "resultType" not in legacy["result"]


async def test_a_template_is_one_user_message(tmp_path: Path) -> None:
    catalog = generated_catalog(tmp_path)
    reply = await get(catalog, "greet", who="Ada")
    assert reply["result"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Hello Ada!"}}
    ]
    assert catalog["promptMessages"]["greet"] == [
        {"role": "user", "parts": [{"text": "Hello "}, {"argument": "who"}, {"text": "!"}]}
    ]


@pytest.mark.parametrize("animal", ["", "not a uri", "zoo\nx"])
async def test_arguments_that_break_the_resource_uri_are_invalid_params(
    tmp_path: Path, animal: str
) -> None:
    catalog = generated_catalog(tmp_path)
    catalog["promptMessages"]["show_animal"][2]["resource"]["uri"] = [{"argument": "animal"}]
    reply = await get(catalog, "show_animal", animal=animal)
    assert reply["error"] == {
        "code": -32602,
        "message": "Prompt show_animal: the arguments do not make a valid resource URI",
    }


async def test_argument_values_are_completed_from_the_config(tmp_path: Path) -> None:
    catalog = generated_catalog(tmp_path)
    message = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "completion/complete",
        "params": {
            "_meta": META,
            "ref": {"type": "ref/prompt", "name": "show_animal"},
            "argument": {"name": "animal", "value": "CA"},
        },
    }

    async def ignore(note: dict[str, Any]) -> None:
        return None

    reply = await Dispatcher(catalog, NoUpstream()).handle(message, None, ignore)
    assert reply is not None
    assert reply["result"]["completion"] == {
        "values": ["cat", "camel"],
        "total": 2,
        "hasMore": False,
    }


def problem(prompt: dict[str, Any], base_dir: Path | None = None) -> str:
    with pytest.raises(GenerationError) as info:
        parse_config({"prompts": [{"name": "p", **prompt}]}, base_dir=base_dir)
    return info.value.diagnostic.message


TEXT = {"text": "hi"}


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ({}, "prompts.p: give either template or messages (one of them)"),
        ({"template": "a", "messages": [TEXT]}, "prompts.p: give either template or messages"),
        (
            {"messages": [{"text": "a", "image": {"data": "AA=="}}]},
            "prompts.p.messages[0]: give exactly one of text, image, resource",
        ),
        ({"messages": [{"role": "system", "text": "a"}]}, "prompts.0.messages.0.role: Input"),
        (
            {"messages": [{"txt": "a"}]},
            "unknown key 'prompts.0.messages.0.txt'; did you mean 'text'?",
        ),
        (
            {"messages": [TEXT, {"text": "{who}"}]},
            "prompts.p: messages[1].text uses undeclared argument 'who'",
        ),
        (
            {
                "arguments": [{"name": "u"}],
                "messages": [{"resource": {"uri": "x://{u}", "text": "t"}}],
            },
            "prompts.p: messages[0].resource.uri uses optional argument 'u'; make it required",
        ),
        (
            {"arguments": [{"name": "a"}, {"name": "a"}], "template": "x"},
            "prompts.p.arguments: 'a' is declared twice",
        ),
        (
            {"messages": [{"image": {"data": "not base64!", "mime_type": "image/png"}}]},
            "prompts.p.messages[0].image.data: not valid base64",
        ),
        (
            {"messages": [{"image": {"data": "AA=="}}]},
            "prompts.p.messages[0].image.mime_type: needed, an image/* type (e.g. image/png)",
        ),
        (
            {"messages": [{"image": {"data": "AA==", "file": "a.png"}}]},
            "prompts.p.messages[0].image: give either file or data (one of them)",
        ),
        (
            {"messages": [{"image": {"file": "a.png"}}]},
            "prompts.p.messages[0].image.file: image files need a config file to be relative to",
        ),
    ],
)
def test_config_mistakes_name_the_key(prompt: dict[str, Any], expected: str) -> None:
    assert expected in problem(prompt)


def test_image_files_must_stay_in_the_config_folder(tmp_path: Path) -> None:
    (tmp_path / "outside.png").write_bytes(PICTURE)
    inner = tmp_path / "config"
    inner.mkdir()
    (inner / "notes.txt").write_text("text")
    outside = {"messages": [{"image": {"file": "../outside.png"}}]}
    assert "image.file: '../outside.png' is outside the config file's folder" in problem(
        outside, inner
    )
    absolute = {"messages": [{"image": {"file": str(tmp_path / "outside.png")}}]}
    assert "is outside the config file's folder" in problem(absolute, inner)
    missing = {"messages": [{"image": {"file": "gone.png"}}]}
    assert "image.file: cannot read 'gone.png'" in problem(missing, inner)
    not_an_image = {"messages": [{"image": {"file": "notes.txt"}}]}
    assert "image.mime_type: needed, an image/* type" in problem(not_an_image, inner)


def test_image_files_are_embedded_with_the_type_their_name_says(tmp_path: Path) -> None:
    (tmp_path / "photo.jpg").write_bytes(b"jpeg bytes")
    config = parse_config(
        {"prompts": [{"name": "p", "messages": [{"image": {"file": "photo.jpg"}}]}]},
        base_dir=tmp_path,
    )
    image = config.prompts[0].messages[0].image
    assert image is not None
    assert (image.data, image.mime_type) == (base64.b64encode(b"jpeg bytes").decode(), "image/jpeg")
