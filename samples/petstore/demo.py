"""The quick-start demo: a generated Petstore MCP server, driven by the official MCP client.

It starts the fake Petstore API (``fake_upstream.py``) on loopback, launches the generated server
over stdio with the MCP Python SDK client (which negotiates 2026-07-28 through ``server/discover``
when the server speaks it), shows what the server offers, calls a read tool and a write tool, reads
a resource template, and prints, for each call, what the MCP client got back next to the HTTP
request the upstream API received. It is written for people: section headers, aligned columns,
colour only on a terminal (``NO_COLOR`` is respected), and a clear message with exit code 1 instead
of a traceback when a step fails.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import re
import shlex
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO, TypeVar
from urllib.parse import quote

import anyio
from fake_upstream import DEFAULT_API_KEY, FakePetstore, RecordedRequest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CONNECTION_CLOSED,
    CallToolResult,
    ResourceTemplate,
    TextContent,
    TextResourceContents,
    Tool,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

# tools tried in order for each call; the generator names tools after operationIds in snake_case
READ_TOOLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("list_pets", {"limit": 3}),
    ("find_pets_by_status", {"status": ["available"]}),
)
WRITE_TOOLS: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "create_pet",
        {"name": "Biscuit", "status": "available", "tags": [{"name": "demo"}]},
    ),
)
_MAX_PAGES = 50
T = TypeVar("T")
PageT = TypeVar("PageT")


class Style:
    """ANSI styling that turns into plain text when colour is off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.enabled else text

    def bold(self, text: str) -> str:
        return self.paint("1", text)

    def dim(self, text: str) -> str:
        return self.paint("2", text)


class Console:
    """Everything the demo prints goes through here, so layout and colour live in one place."""

    def __init__(self, stream: TextIO, style: Style, width: int, fancy: bool) -> None:
        self.stream, self.style, self.width = stream, style, width
        self.reader_gone = False
        # box-drawing and check marks only where the stream can encode them
        self.rule, self.ok, self.ko, self.arrow = (
            ("─", "✓", "✗", "→") if fancy else ("-", "OK", "FAIL", "->")
        )

    @classmethod
    def for_stream(cls, stream: TextIO, color: str) -> Console:
        is_tty = stream.isatty()
        plain = bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb"
        enabled = color == "always" or (color == "auto" and is_tty and not plain)
        width = min(max(shutil.get_terminal_size((100, 24)).columns, 60), 120)
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        return cls(stream, Style(enabled), width, encoding.startswith("utf"))

    def line(self, text: str = "") -> None:
        if self.reader_gone:
            return
        try:
            print(text, file=self.stream, flush=True)
        except BrokenPipeError:
            # the reader (e.g. `| head`) left: finish quietly and keep the exit code
            self.reader_gone = True
            if self.stream is sys.stdout:
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    def title(self, text: str) -> None:
        self.line(self.style.bold(text))

    def section(self, title: str) -> None:
        self.line()
        head = f"{self.rule * 2} {title} "
        self.line(self.style.paint("1;36", head + self.rule * max(self.width - len(head), 3)))

    def field(self, label: str, value: str) -> None:
        indent = " " * 17
        wrapped = textwrap.wrap(value, self.width - len(indent)) or [""]
        self.line(f"  {label:<14} {wrapped[0]}")
        for rest in wrapped[1:]:
            self.line(indent + rest)

    def table(self, headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
        widths = [max(len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]

        def render(cells: tuple[str, ...]) -> str:
            text = "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
            return _clip("  " + text.rstrip(), self.width)

        self.line(self.style.bold(render(headers)))
        for row in rows:
            self.line(render(row))

    def block(self, lines: list[str], indent: int = 4) -> None:
        for text in lines:
            self.line(" " * indent + text)

    def note(self, text: str) -> None:
        self.line(self.style.dim("  " + text))

    def success(self, text: str, *, wrap: bool = True) -> None:
        self._marked(self.style.paint("32", self.ok), len(self.ok), text, wrap)

    def failure(self, text: str, *, wrap: bool = True) -> None:
        self._marked(self.style.paint("1;31", self.ko), len(self.ko), text, wrap)

    def _marked(self, mark: str, mark_width: int, text: str, wrap: bool) -> None:
        indent = 3 + mark_width
        wrapped = textwrap.wrap(text, self.width - indent) if wrap else [text]
        wrapped = wrapped or [""]
        self.line(f"  {mark} {wrapped[0]}")
        for rest in wrapped[1:]:
            self.line(" " * indent + rest)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 1)] + "…"


def pretty_json(value: Any, max_lines: int, width: int) -> list[str]:
    """JSON laid out to fit ``width`` (one line per item where it fits), cut to ``max_lines``."""
    if isinstance(value, str):
        lines = [_clip(line, width) for line in value.splitlines()] or ['""']
    else:
        lines = _layout(value, "", "", width)
    if len(lines) > max_lines:
        hidden = len(lines) - max_lines + 1
        lines = [*lines[: max_lines - 1], f"… ({hidden} more lines)"]
    return lines


def _layout(value: Any, indent: str, prefix: str, width: int) -> list[str]:
    """Lines for ``prefix + value``: on one line if it fits; objects expand key by key, arrays
    item by item with each item kept on one (clipped) line, so a list of records reads as rows."""
    flat = indent + prefix + json.dumps(value, ensure_ascii=False)
    if len(flat) <= width or not isinstance(value, dict | list) or not value:
        return [_clip(flat, width)]
    inner = indent + "  "
    if isinstance(value, dict):
        lines = [indent + prefix + "{"]
        for key, item in value.items():
            lines += _layout(item, inner, json.dumps(key, ensure_ascii=False) + ": ", width)
            lines[-1] += ","
        closing = "}"
    else:
        lines = [indent + prefix + "["]
        lines += [
            _clip(inner + json.dumps(item, ensure_ascii=False) + ",", width) for item in value
        ]
        closing = "]"
    lines[-1] = lines[-1].removesuffix(",")
    return [*lines, indent + closing]


def mask_secret(value: str) -> str:
    """Show just enough of a secret to recognise it: ``sk-…42``."""
    return "…" if len(value) <= 6 else f"{value[:3]}…{value[-2:]}"


def describe_error(exc: BaseException) -> str:
    """A one-line explanation of an exception, without a traceback."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, MCPError):
        return f"{exc.message} (MCP error {exc.code})"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror + (f": {exc.filename}" if exc.filename else "")
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


class StepFailed(Exception):
    """A demo step did not do what it should; the message says what happened."""


@dataclass
class Demo:
    """Runs the steps against one connected client and keeps the score."""

    console: Console
    upstream: FakePetstore
    api_key: str
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    templates: list[ResourceTemplate] = field(default_factory=list)
    created_pet_id: int | None = None
    connection_lost: bool = False

    async def step(self, name: str, action: Callable[[], Awaitable[None]]) -> bool:
        """Run one step; failures are reported and counted, never raised."""
        if self.connection_lost:
            return False
        try:
            await action()
        except StepFailed as exc:
            self.console.failure(str(exc))
        except Exception as exc:
            # the SDK raises many types (MCPError, RuntimeError for a bad outputSchema match, …);
            # each is one failed step, reported in a line
            self.console.failure(describe_error(exc))
            closed = isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED
            self.connection_lost = closed or isinstance(exc, anyio.ClosedResourceError)
        else:
            self.passed.append(name)
            return True
        self.failed.append(name)
        return False

    async def run(self, client: Client) -> None:
        await self.step("connect", lambda: self.show_server(client))
        tools: list[Tool] = []

        async def list_tools() -> None:
            tools.extend(await _collect(client.list_tools, lambda page: page.tools))
            self.show_tools(tools)

        if not await self.step("list tools", list_tools):
            return
        await self.step("list resources and prompts", lambda: self.show_catalog(client))
        read = _pick(tools, READ_TOOLS)
        await self.step("call a read tool", lambda: self.call(client, read, "read"))
        write = _pick(tools, WRITE_TOOLS)
        await self.step("call a write tool", lambda: self.call(client, write, "write"))
        await self.step("read a resource template", lambda: self.read_template(client))

    async def show_server(self, client: Client) -> None:
        console = self.console
        console.section("Server")
        info = client.server_info
        name = "(the server did not say)" if info is None else f"{info.name} {info.version}"
        if info is not None and info.title:
            name += f'  "{info.title}"'
        console.field("name", name)
        version = client.protocol_version
        how = "server/discover" if version in MODERN_PROTOCOL_VERSIONS else "initialize handshake"
        console.field("protocol", f"{console.style.bold(version)} (negotiated with {how})")
        capabilities = client.server_capabilities.model_dump(exclude_none=True)
        console.field("capabilities", ", ".join(sorted(capabilities)) or "none")
        if client.instructions:
            paragraph = " ".join(client.instructions.strip().split("\n\n")[0].split())
            console.field("instructions", _clip(paragraph, 2 * console.width))

    def show_tools(self, tools: list[Tool]) -> None:
        console = self.console
        self.counts["tools"] = len(tools)
        console.section(f"Tools ({len(tools)})")
        rows = [(tool.name, _hints(tool), _tool_title(tool)) for tool in tools]
        console.table(("NAME", "R D I", "TITLE"), rows)
        console.note("R read-only, D destructive, I idempotent; - no, ? not stated")

    async def show_catalog(self, client: Client) -> None:
        console = self.console
        capabilities = client.server_capabilities
        console.section("Resources, templates and prompts")
        if capabilities.resources is None:
            console.field("resources", "not offered by this server")
        else:
            resources = await _collect(client.list_resources, lambda page: page.resources)
            templates = await _collect(
                client.list_resource_templates, lambda page: page.resource_templates
            )
            self.counts["resources"], self.counts["templates"] = len(resources), len(templates)
            console.field(f"resources ({len(resources)})", ", ".join(r.uri for r in resources))
            console.field(
                f"templates ({len(templates)})", ", ".join(t.uri_template for t in templates)
            )
            self.templates = templates
        if capabilities.prompts is None:
            console.field("prompts", "not offered by this server")
        else:
            prompts = await _collect(client.list_prompts, lambda page: page.prompts)
            self.counts["prompts"] = len(prompts)
            console.field(f"prompts ({len(prompts)})", ", ".join(p.name for p in prompts))

    async def call(
        self, client: Client, choice: tuple[Tool, dict[str, Any]] | None, kind: str
    ) -> None:
        console = self.console
        if choice is None:
            wanted = READ_TOOLS if kind == "read" else WRITE_TOOLS
            names = ", ".join(name for name, _ in wanted)
            console.section(f"Call a {kind} tool")
            raise StepFailed(f"the server has no {kind} tool the demo knows (looked for {names})")
        tool, values = choice
        arguments = _arguments_for(tool, values)
        console.section(f"Call {tool.name}")
        console.field("arguments", json.dumps(arguments))
        mark = len(self.upstream.requests)
        result = await client.call_tool(tool.name, arguments)
        data = _result_data(result)
        if result.is_error:
            shape = "an error (isError)"
        elif result.structured_content is not None:
            shape = "structuredContent"
        else:
            shape = "text content"
        console.field("client got", shape)
        console.block(pretty_json(data, max_lines=14, width=console.width - 4))
        received = self.show_upstream(mark)
        if result.is_error:
            raise StepFailed(f"{tool.name} returned an error (isError)")
        self.check_received(received, tool.name)
        if kind == "write" and isinstance(data, dict) and isinstance(data.get("id"), int):
            self.created_pet_id = data["id"]

    async def read_template(self, client: Client) -> None:
        console = self.console
        console.section("Read a resource template")
        template = next((t for t in self.templates if _is_pet_template(t.uri_template)), None)
        if template is None:
            raise StepFailed("the server lists no resource template for one pet (…/pets/{petId})")
        pet_id = self.created_pet_id if self.created_pet_id is not None else 1
        uri = _expand(template.uri_template, pet_id)
        console.field("template", template.uri_template)
        console.field("uri", uri)
        mark = len(self.upstream.requests)
        result = await client.read_resource(uri)
        for content in result.contents:
            console.field("contents", content.mime_type or "(no MIME type)")
            if isinstance(content, TextResourceContents):
                console.block(pretty_json(_maybe_json(content.text), 14, console.width - 4))
        received = self.show_upstream(mark)
        if not result.contents:
            raise StepFailed(f"reading {uri} returned no contents")
        self.check_received(received, uri)

    def show_upstream(self, mark: int) -> list[RecordedRequest]:
        console = self.console
        received = self.upstream.requests[mark:]
        console.field("upstream got", _count(len(received), "request"))
        for request in received:
            line = console.style.bold(f"{request.method} {request.target}")
            console.block([f"{line}  {console.arrow} {request.status}"], indent=4)
            lines = [
                f"{name}: {mask_secret(value) if name in _SECRET_HEADERS else value}"
                for name, value in sorted(request.headers.items())
                if name in _SHOWN_HEADERS
            ]
            if request.body:
                lines += pretty_json(_maybe_json(request.body.decode("utf-8", "replace")), 8, 90)
            console.block(lines, indent=6)
        self.counts["upstream"] = self.counts.get("upstream", 0) + len(received)
        return received

    def check_received(self, received: list[RecordedRequest], what: str) -> None:
        if not received:
            raise StepFailed(f"{what}: the server did not call the upstream API")
        if any(request.headers.get("x-api-key") != self.api_key for request in received):
            raise StepFailed(f"{what}: the server did not send the API key it was given")
        self.console.success(f"{what} reached the upstream with the API key")


_SHOWN_HEADERS = frozenset({"x-api-key", "authorization", "content-type", "x-request-id"})
_SECRET_HEADERS = frozenset({"x-api-key", "authorization"})


async def _collect(
    fetch: Callable[..., Awaitable[PageT]], items: Callable[[PageT], list[T]]
) -> list[T]:
    """Walk every page of a list method."""
    collected: list[T] = []
    cursor: str | None = None
    for _ in range(_MAX_PAGES):
        page = await fetch(cursor=cursor)
        collected.extend(items(page))
        cursor = getattr(page, "next_cursor", None)
        if cursor is None:
            break
    return collected


def _pick(
    tools: list[Tool], candidates: tuple[tuple[str, dict[str, Any]], ...]
) -> tuple[Tool, dict[str, Any]] | None:
    by_name = {tool.name: tool for tool in tools}
    for name, values in candidates:
        if name in by_name:
            return by_name[name], values
    return None


def _arguments_for(tool: Tool, values: Mapping[str, Any]) -> dict[str, Any]:
    """Shape demo values for the tool: flattened body fields, or one argument holding the body."""
    schema = tool.input_schema
    properties: dict[str, Any] = schema.get("properties", {})
    if all(name in properties for name in values):
        return dict(values)
    objects = {name: _resolve(candidate, schema) for name, candidate in properties.items()}
    objects = {
        name: s for name, s in objects.items() if s.get("type") == "object" or "properties" in s
    }
    for name, candidate in objects.items():
        if all(key in candidate.get("properties", {}) for key in values):
            return {name: dict(values)}
    if len(objects) == 1:
        # a free-form object argument: the whole body
        return {next(iter(objects)): dict(values)}
    return {name: value for name, value in values.items() if name in properties}


def _resolve(schema: Any, root: Mapping[str, Any]) -> dict[str, Any]:
    """Follow a local ``$ref`` (``#/$defs/...``) inside a tool's input schema."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        schema = target
    return schema if isinstance(schema, dict) else {}


def _result_data(result: CallToolResult) -> Any:
    if result.structured_content is not None:
        return result.structured_content
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    return _maybe_json("\n".join(texts))


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _hints(tool: Tool) -> str:
    annotations = tool.annotations

    def mark(value: bool | None, letter: str) -> str:
        return "?" if value is None else letter if value else "-"

    if annotations is None:
        return "? ? ?"
    return " ".join(
        (
            mark(annotations.read_only_hint, "R"),
            mark(annotations.destructive_hint, "D"),
            mark(annotations.idempotent_hint, "I"),
        )
    )


def _tool_title(tool: Tool) -> str:
    if tool.title:
        return tool.title
    return tool.annotations.title or "" if tool.annotations is not None else ""


def _is_pet_template(uri_template: str) -> bool:
    without_query = re.sub(r"\{[?&][^}]*\}", "", uri_template)
    return re.search(r"pets/\{[A-Za-z0-9_]+\}$", without_query) is not None


def _expand(uri_template: str, pet_id: int) -> str:
    """Fill the pet id into the template and leave out optional query expressions."""
    uri = re.sub(r"\{[?&][^}]*\}", "", uri_template)
    return re.sub(r"\{[A-Za-z0-9_]+\}", quote(str(pet_id), safe=""), uri)


def resolve_command(command: str) -> list[str]:
    """Split the server command and find its executable, also next to this Python's executable."""
    parts = shlex.split(command)
    if not parts:
        raise StepFailed("--server-command is empty")
    found = shutil.which(parts[0])
    if found is None:
        beside = Path(sys.executable).parent / parts[0]
        if beside.is_file() and os.access(beside, os.X_OK):
            found = str(beside)
    if found is None:
        raise StepFailed(
            f"cannot find the server command {parts[0]!r}; install the generated server first "
            "(scripts/demo.sh generates and installs it)"
        )
    return [found, *parts[1:]]


async def run(options: argparse.Namespace, console: Console) -> int:
    """Run the whole demo; returns the exit code."""
    try:
        command = resolve_command(options.server_command)
    except StepFailed as exc:
        console.failure(str(exc))
        return 1
    with (
        FakePetstore(api_key=options.api_key) as upstream,
        tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as server_log,
    ):
        console.title("openapi2mcp quick-start demo")
        console.field("upstream", f"{upstream.base_url}  (fake Petstore, in memory)")
        env = {options.base_url_env: upstream.base_url, options.api_key_env: options.api_key}
        console.field("server", f"{options.server_command}  (stdio; {', '.join(env)} set)")
        console.field("API key", mask_secret(options.api_key))
        params = StdioServerParameters(command=command[0], args=command[1:], env=env)
        errlog: TextIO = sys.stderr if options.verbose else server_log
        demo = Demo(console, upstream, options.api_key)
        try:
            async with Client(
                stdio_client(params, errlog=errlog),
                mode="auto",
                read_timeout_seconds=options.timeout,
            ) as client:
                await demo.run(client)
        except Exception as exc:
            # failing to start or to finish the session: report it instead of a traceback
            console.failure(f"the MCP server stopped answering: {describe_error(exc)}")
            demo.failed.append("talk to the server")
        if demo.failed and not options.verbose:
            server_log.seek(0)
            tail = server_log.read().splitlines()[-12:]
            if tail:
                console.section("Server stderr (last lines)")
                console.block(tail)
        return _summary(console, demo)


def _summary(console: Console, demo: Demo) -> int:
    console.section("Summary")
    total = len(demo.passed) + len(demo.failed)
    if demo.failed:
        failed = ", ".join(demo.failed)
        console.failure(f"{len(demo.failed)} of {total} steps failed: {failed}", wrap=False)
        return 1
    counts = demo.counts
    nouns = {"tools": "tool", "resources": "resource", "templates": "template", "prompts": "prompt"}
    offered = ", ".join(_count(counts[key], noun) for key, noun in nouns.items() if key in counts)
    received = _count(counts.get("upstream", 0), "upstream request")
    console.success(f"all {total} steps passed: {offered}; {received}", wrap=False)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--server-command", default="petstore-mcp", help="command of the server")
    parser.add_argument("--base-url-env", default="PETSTORE_BASE_URL")
    parser.add_argument("--api-key-env", default="PETSTORE_API_KEY")
    parser.add_argument("--api-key", default=DEFAULT_API_KEY, help="key the fake upstream expects")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait per request")
    parser.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    parser.add_argument("--verbose", action="store_true", help="show the server's stderr live")
    options = parser.parse_args(argv)
    if not options.verbose:
        # the SDK logs transport teardown problems with tracebacks; the demo reports them itself
        logging.getLogger("mcp").setLevel(logging.CRITICAL)
    if isinstance(sys.stdout, io.TextIOWrapper):
        # a non-UTF-8 terminal gets "?" for the odd ellipsis rather than a UnicodeEncodeError
        sys.stdout.reconfigure(errors="replace")
    console = Console.for_stream(sys.stdout, options.color)
    try:
        return anyio.run(run, options, console)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
