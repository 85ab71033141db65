"""The per-user credential pages: their markup and headers, then the pages in a real Chromium.

The unit tests parse the pages with the standard library's HTML parser: what a browser would see
(attribute values, text) must be exactly what was passed in, however hostile. The browser tests serve
the pages from a small ASGI app under uvicorn on 127.0.0.1 (two sockets, so two origins: the second
stands in for an OAuth authorization server) and drive Debian's Chromium with Playwright; ``.ci/run``
(``scripts/test.sh``) installs Chromium. They submit the forms, watch the console for errors and
CSP violations, and take full-page screenshots at desktop and phone sizes, kept in the test's
temporary directory, and copied to the folder ``$PERUSER_SCREENSHOTS`` names (when set) for people to
look at.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

import pytest
import uvicorn
from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from templates.runtime.peruser.pages import (
    CONTENT_TYPE,
    SECURITY_HEADERS,
    STYLE,
    Field,
    done_page,
    problem_page,
    security_headers,
    signin_page,
)

CHROMIUM = Path("/usr/bin/chromium")
# where a person wants the screenshots copied to look at them (unset: they stay in tmp_path)
SCREENS = os.environ.get("PERUSER_SCREENSHOTS", "")
HOSTILE = "<script>alert(1)</script>\"'&<b>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;&amp;&lt;b&gt;"
KEY_FIELDS = (
    Field("username", "User name", secret=False),
    Field("password", "Password", secret=True, hint="The password of your Petstore account."),
)
VOID = {"meta", "input", "br", "hr", "img", "link"}


# --- the markup, as a parser reads it ---------------------------------------------------------


@dataclass
class Parsed:
    tags: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    styles: list[str] = field(default_factory=list)
    title: str = ""


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parsed = Parsed()
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parsed.tags.append((tag, {name: value or "" for name, value in attrs}))
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "style":
            self.parsed.styles.append(data)
        elif self.open and self.open[-1] == "title":
            self.parsed.title += data
        else:
            self.parsed.text.append(data)


def parse(page: bytes) -> Parsed:
    reader = _Reader()
    reader.feed(page.decode("utf-8"))
    reader.close()
    assert reader.open == [], f"unclosed elements: {reader.open}"
    return reader.parsed


def inputs(parsed: Parsed) -> list[tuple[str, str, str]]:
    return [
        (attrs["type"], attrs["name"], attrs.get("autocomplete", ""))
        for tag, attrs in parsed.tags
        if tag == "input"
    ]


def text(parsed: Parsed) -> str:
    return " ".join("".join(parsed.text).split())


def key_entry(**overrides: Any) -> bytes:
    arguments: dict[str, Any] = {
        "api": "Petstore",
        "scheme": "basicAuth",
        "action": "/connect/abc",
        "form_token": "tok-123",
        "fields": KEY_FIELDS,
        "identity": True,
        "oauth": False,
    }
    return signin_page(**{**arguments, **overrides})


def all_pages() -> list[bytes]:
    return [
        key_entry(),
        key_entry(error="Wrong token"),
        key_entry(fields=(), oauth=True),
        done_page(api="Petstore", scheme="oauth"),
        problem_page(title="Link expired", message="This link is no longer valid."),
    ]


# --- unit tests --------------------------------------------------------------------------------


def test_every_page_is_a_complete_html5_document_without_script_or_external_resources() -> None:
    for page in all_pages():
        assert page.startswith(b'<!DOCTYPE html>\n<html lang="en">')
        parsed = parse(page)
        metas = [attrs for tag, attrs in parsed.tags if tag == "meta"]
        assert metas == [
            {"charset": "utf-8"},
            {"name": "viewport", "content": "width=device-width, initial-scale=1"},
            {"name": "referrer", "content": "no-referrer"},
        ]
        assert b"<script" not in page.lower()
        assert not [tag for tag, _ in parsed.tags if tag in {"script", "link", "img", "iframe"}]
        assert not [attrs for _, attrs in parsed.tags if {"src", "href", "style"} & attrs.keys()]
        assert parsed.styles == [STYLE]
        assert "url(" not in STYLE
        assert "@import" not in STYLE


def test_key_entry_page_asks_for_identity_then_credentials_with_a_hidden_form_token() -> None:
    parsed = parse(key_entry())
    assert parsed.title == "Connect Petstore"
    form = next(attrs for tag, attrs in parsed.tags if tag == "form")
    assert form == {"method": "post", "action": "/connect/abc", "autocomplete": "off"}
    hidden = next(attrs for tag, attrs in parsed.tags if attrs.get("type") == "hidden")
    assert hidden == {"type": "hidden", "name": "form_token", "value": "tok-123"}
    assert inputs(parsed) == [
        ("hidden", "form_token", ""),
        ("password", "mcp_token", "off"),
        ("text", "username", "username"),
        ("password", "password", "off"),
    ]
    words = text(parsed)
    assert "Your MCP access token" in words
    assert "The token your MCP client uses to connect to this server." in words
    assert (
        "This MCP server needs your own credentials for Petstore (security scheme basicAuth)"
        in words
    )
    assert "stored encrypted, and never reach the AI model or your MCP client." in words
    assert words.index("Your MCP access token") < words.index("User name")
    assert "Save" in words
    assert 'role="alert"' not in key_entry().decode()


def test_field_types_follow_secret_and_name() -> None:
    fields = (
        Field("api_key", "API key", secret=True),
        Field("account", "Account", secret=False),
        Field("username", "User name", secret=False),
    )
    parsed = parse(key_entry(fields=fields, identity=False))
    assert inputs(parsed) == [
        ("hidden", "form_token", ""),
        ("password", "api_key", "off"),
        ("text", "account", "off"),
        ("text", "username", "username"),
    ]
    assert "Your MCP access token" not in text(parsed)


def test_hints_are_tied_to_their_inputs() -> None:
    parsed = parse(key_entry())
    password = next(attrs for tag, attrs in parsed.tags if attrs.get("name") == "password")
    hint = next(
        attrs for tag, attrs in parsed.tags if attrs.get("id") == password["aria-describedby"]
    )
    assert hint["class"] == "hint"
    labels = [attrs["for"] for tag, attrs in parsed.tags if tag == "label"]
    ids = [attrs["id"] for tag, attrs in parsed.tags if tag == "input" and "id" in attrs]
    assert labels == ids and len(set(ids)) == 3


def test_oauth_page_has_a_continue_button_and_no_credential_fields() -> None:
    parsed = parse(key_entry(fields=(), oauth=True, api="Acme CRM"))
    assert inputs(parsed) == [("hidden", "form_token", ""), ("password", "mcp_token", "off")]
    words = text(parsed)
    assert "Continue to Acme CRM sign-in" in words
    assert "Save" not in words
    assert "never reach the AI model or your MCP client." in words
    without_identity = parse(key_entry(fields=(), oauth=True, identity=False))
    assert inputs(without_identity) == [("hidden", "form_token", "")]


def test_error_is_an_alert_above_the_form() -> None:
    page = key_entry(error="That MCP access token is not the one this link was made for.").decode()
    assert page.index('<div class="alert" role="alert">That MCP access token') < page.index("<form")


def test_hostile_strings_are_escaped_everywhere() -> None:
    hostile_field = Field(HOSTILE, HOSTILE, secret=False, hint=HOSTILE)
    pages = [
        key_entry(
            api=HOSTILE,
            scheme=HOSTILE,
            action=HOSTILE,
            form_token=HOSTILE,
            error=HOSTILE,
            fields=(hostile_field,),
        ),
        key_entry(api=HOSTILE, scheme=HOSTILE, fields=(), oauth=True),
        done_page(api=HOSTILE, scheme=HOSTILE),
        problem_page(title=HOSTILE, message=HOSTILE),
    ]
    for page in pages:
        assert b"<script" not in page.lower()
        assert b"<b>" not in page
        assert ESCAPED.encode() in page
        parsed = parse(page)
        # nothing broke out of an attribute or an element: every value reads back whole
        assert not [tag for tag, _ in parsed.tags if tag in {"script", "b"}]
    parsed = parse(pages[0])
    assert parsed.title == f"Connect {HOSTILE}"
    form = next(attrs for tag, attrs in parsed.tags if tag == "form")
    assert form["action"] == HOSTILE
    assert ("hidden", "form_token", "") in inputs(parsed)
    hidden = next(attrs for tag, attrs in parsed.tags if attrs.get("type") == "hidden")
    assert hidden["value"] == HOSTILE
    assert ("text", HOSTILE, "off") in inputs(parsed)
    assert text(parsed).count(HOSTILE) == 7  # heading, lead, scheme, error, legend, label, hint
    assert parse(pages[3]).title == HOSTILE


def test_contradictory_or_clashing_fields_are_refused() -> None:
    with pytest.raises(ValueError, match="OAuth"):
        key_entry(oauth=True)
    with pytest.raises(ValueError, match="at least one field"):
        key_entry(fields=())
    for clash in (
        (Field("mcp_token", "x", secret=True),),
        (Field("form_token", "x", secret=True),),
        (Field("a", "x", secret=True), Field("a", "y", secret=False)),
    ):
        with pytest.raises(ValueError, match="unique"):
            key_entry(fields=clash)


def test_done_and_problem_pages_say_what_to_do_next() -> None:
    done = parse(done_page(api="Petstore", scheme="petstore_auth"))
    assert done.title == "Connected to Petstore"
    assert "Connected" in text(done)
    assert "You can close this tab and go back to your MCP client, then retry the request." in text(
        done
    )
    problem = parse(problem_page(title="Link already used", message="This link was used once."))
    assert problem.title == "Link already used"
    assert text(problem).endswith(
        "This link was used once. Go back to your MCP client and ask the assistant to retry the "
        "request: it will give you a new link."
    )


def test_security_headers_allow_only_the_inline_style_by_its_hash() -> None:
    headers = dict(SECURITY_HEADERS)
    assert len(headers) == len(SECURITY_HEADERS)
    style = parse(key_entry()).styles[0]
    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
    assert headers == {
        b"content-type": b"text/html; charset=utf-8",
        b"content-security-policy": (
            f"default-src 'none'; style-src 'sha256-{digest}'; form-action 'self'; "
            "frame-ancestors 'none'; base-uri 'none'"
        ).encode(),
        b"x-content-type-options": b"nosniff",
        b"referrer-policy": b"no-referrer",
        b"cache-control": b"no-store",
        b"x-frame-options": b"DENY",
    }
    assert headers[b"content-type"] == CONTENT_TYPE
    widened = dict(security_headers("'self' https://auth.example.com"))
    assert b"; form-action 'self' https://auth.example.com; " in widened[b"content-security-policy"]


@pytest.mark.parametrize(
    "form_action",
    ["", " ", "'self'; script-src *", "'self', https://a", "'self'\r\nx: y", "https://é.example"],
)
def test_a_form_action_that_would_end_the_directive_is_refused(form_action: str) -> None:
    with pytest.raises(ValueError, match="CSP source list"):
        security_headers(form_action)


# --- a real browser: the server ----------------------------------------------------------------


@dataclass
class Site:
    base: str
    auth_origin: str
    posts: list[tuple[str, bytes, bytes]] = field(default_factory=list)  # path, content-type, body


def _bind() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    return sock


def _app(site: Site) -> Any:
    oauth_headers = security_headers(f"'self' {site.auth_origin}")
    key = {"fields": KEY_FIELDS, "identity": True, "oauth": False}
    oauth = {"fields": (), "identity": True, "oauth": True, "action": "/oauth-start"}
    pages: dict[str, tuple[bytes, tuple[tuple[bytes, bytes], ...]]] = {
        "/signin": (key_entry(action="/submit", **key), SECURITY_HEADERS),
        "/signin-error": (
            key_entry(action="/submit", error="That MCP access token is not yours.", **key),
            SECURITY_HEADERS,
        ),
        "/oauth": (key_entry(api="Acme CRM", scheme="acmeOAuth", **oauth), SECURITY_HEADERS),
        "/oauth-allowed": (key_entry(api="Acme CRM", scheme="acmeOAuth", **oauth), oauth_headers),
        "/done": (done_page(api="Petstore", scheme="basicAuth"), SECURITY_HEADERS),
        "/problem": (
            problem_page(
                title="This link has expired",
                message="Links to connect an account work once, for ten minutes.",
            ),
            SECURITY_HEADERS,
        ),
        "/broken-csp": (
            key_entry(),
            tuple(
                (name, b"default-src 'none'; style-src 'sha256-AAAA'")
                if name == b"content-security-policy"
                else (name, value)
                for name, value in SECURITY_HEADERS
            ),
        ),
    }

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        path, method = scope["path"], scope["method"]
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, headers, reply = 404, [(b"content-type", b"text/plain")], b"not found"
        if method == "GET" and path in pages:
            reply, page_headers = pages[path]
            status, headers = 200, list(page_headers)
        elif method == "POST":
            content_type = dict(scope["headers"]).get(b"content-type", b"")
            site.posts.append((path, content_type, body))
            if path == "/oauth-start":
                location = f"{site.auth_origin}/authorize?state=s1".encode()
                status, headers, reply = 303, [(b"location", location)], b""
            else:
                fields = parse_qsl(body.decode(), keep_blank_values=True)
                status, headers = 200, [(b"content-type", b"application/json")]
                reply = json.dumps({"fields": fields}).encode()
        elif path == "/favicon.ico":
            # Chromium asks for it after the JSON echo and the stand-in authorization page (the
            # pages' own policy keeps it from asking there); a 404 would be a console error
            status, headers, reply = 204, [], b""
        elif path == "/authorize":
            status, headers, reply = 200, [(b"content-type", b"text/plain")], b"authorize here"
        headers.append((b"content-length", str(len(reply)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": reply})

    return app


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    pages_socket, auth_socket = _bind(), _bind()
    site = Site(
        base=f"http://127.0.0.1:{pages_socket.getsockname()[1]}",
        auth_origin=f"http://127.0.0.1:{auth_socket.getsockname()[1]}",
    )
    config = uvicorn.Config(_app(site), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [pages_socket, auth_socket]}, daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield site
    server.should_exit = True
    thread.join(timeout=20)
    pages_socket.close()
    auth_socket.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: these tests drive Debian's Chromium, which .ci/run "
            "(scripts/test.sh) installs; install it with `apt-get install -y chromium chromium-driver`",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM))
        yield chromium
        chromium.close()


# Chromium's autofill lint guesses two forms in one when a password field (the MCP access token)
# comes before a user name and a password; the identity question comes first on purpose
KNOWN_LINT = "verbose: [DOM] Multiple forms should be contained in their own form elements"


def watch(page: Page) -> list[str]:
    """Every console message and uncaught error of ``page`` from now on, as text."""
    console: list[str] = []

    def note(message: ConsoleMessage) -> None:
        console.append(f"{message.type}: {message.text} {message.location}")

    page.on("console", note)
    page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
    return console


def complaints(console: list[str]) -> list[str]:
    return [line for line in console if not line.startswith(KNOWN_LINT)]


@dataclass
class Tab:
    page: Page
    console: list[str]


@pytest.fixture
def tab(browser: Browser) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    yield Tab(page, watch(page))
    context.close()


# --- a real browser: the tests -----------------------------------------------------------------


@pytest.mark.slow
def test_chromium_submits_exactly_the_fields_of_the_key_entry_page(site: Site, tab: Tab) -> None:
    page = tab.page
    response = page.goto(f"{site.base}/signin")
    assert response is not None and response.status == 200
    assert page.title() == "Connect Petstore"
    page.get_by_label("Your MCP access token").fill("mcp-tok en/é")
    page.get_by_label("User name").fill("alice@example.com")
    page.get_by_label("Password").fill("p@ss w0rd&=ü")
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    expected = [
        ("form_token", "tok-123"),
        ("mcp_token", "mcp-tok en/é"),
        ("username", "alice@example.com"),
        ("password", "p@ss w0rd&=ü"),
    ]
    assert site.posts[-1] == (
        "/submit",
        b"application/x-www-form-urlencoded",
        urlencode(expected).encode(),
    )
    assert json.loads(page.locator("body").inner_text()) == {"fields": [list(p) for p in expected]}
    assert complaints(tab.console) == []


@pytest.mark.slow
def test_console_collection_sees_a_csp_violation(site: Site, tab: Tab) -> None:
    # the control for every "no console errors" assertion: a wrong style hash is reported
    tab.page.goto(f"{site.base}/broken-csp")
    assert any("Content Security Policy" in line for line in tab.console), tab.console


@pytest.mark.slow
def test_oauth_redirect_after_the_form_needs_the_authorization_origin_in_form_action(
    site: Site, tab: Tab
) -> None:
    page = tab.page
    page.goto(f"{site.base}/oauth")
    page.get_by_label("Your MCP access token").fill("mcp-token")
    page.get_by_role("button", name="Continue to Acme CRM sign-in").click()
    page.wait_for_load_state()
    deadline = time.monotonic() + 10
    while not any("form-action" in line for line in tab.console):
        assert time.monotonic() < deadline, f"no form-action violation: {tab.console}"
        page.wait_for_timeout(50)
    assert not page.url.startswith(site.auth_origin)
    assert site.posts[-1][0] == "/oauth-start"

    tab.console.clear()
    page.goto(f"{site.base}/oauth-allowed")
    page.get_by_label("Your MCP access token").fill("mcp-token")
    with page.expect_navigation(url=f"{site.auth_origin}/authorize?state=s1"):
        page.get_by_role("button", name="Continue to Acme CRM sign-in").click()
    assert page.locator("body").inner_text() == "authorize here"
    assert site.posts[-1] == (
        "/oauth-start",
        b"application/x-www-form-urlencoded",
        b"form_token=tok-123&mcp_token=mcp-token",
    )
    assert complaints(tab.console) == []


# --- screenshots -------------------------------------------------------------------------------


def _add_bytes(left: bytes, right: bytes) -> bytes:
    # bytewise addition modulo 256 of whole rows at once: the seven low bits of each byte add
    # without carrying into the next byte, and the top bit is their carry XOR both top bits
    size = len(left)
    low = int.from_bytes(b"\x7f" * size, "big")
    high = int.from_bytes(b"\x80" * size, "big")
    x, y = int.from_bytes(left, "big"), int.from_bytes(right, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(size, "big")


def _unfilter(kind: int, line: bytes, prior: bytes, bpp: int) -> bytes:
    if kind == 0:
        return line
    if kind == 2:
        return _add_bytes(line, prior)
    out = bytearray(line)
    for i in range(len(out)):
        left = out[i - bpp] if i >= bpp else 0
        if kind == 1:
            predicted = left
        elif kind == 3:
            predicted = (left + prior[i]) >> 1
        else:
            above, corner = prior[i], prior[i - bpp] if i >= bpp else 0
            estimate = left + above - corner
            distances = (abs(estimate - left), abs(estimate - above), abs(estimate - corner))
            predicted = (left, above, corner)[distances.index(min(distances))]
        out[i] = (out[i] + predicted) & 0xFF
    return bytes(out)


def png_colours(data: bytes) -> tuple[int, int, int]:
    """Width, height and the number of distinct colours of an 8-bit RGB(A) PNG."""
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    position, header, compressed = 8, b"", bytearray()
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        chunk = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            compressed += chunk
        position += 12 + length
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, interlace) == (8, 0) and colour_type in (2, 6)
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(bytes(compressed))
    stride = width * bpp
    prior, colours = bytes(stride), set()
    for row in range(height):
        start = row * (stride + 1)
        prior = _unfilter(raw[start], raw[start + 1 : start + 1 + stride], prior, bpp)
        colours.update(prior[i : i + bpp] for i in range(0, stride, bpp))
    return width, height, len(colours)


SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_screenshots_of_every_page(site: Site, browser: Browser, size: str, tmp_path: Path) -> None:
    context = browser.new_context(**SIZES[size])
    page = context.new_page()
    console = watch(page)
    if SCREENS:
        Path(SCREENS).mkdir(parents=True, exist_ok=True)
    try:
        for name in ("signin", "signin-error", "oauth", "done", "problem"):
            page.goto(f"{site.base}/{name}")
            # nothing sticks out sideways, and the layout adapted to the phone's width
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width == SIZES[size]["viewport"]["width"], (name, width)
            shot = tmp_path / f"{name}-{size}.png"
            data = page.screenshot(path=shot, full_page=True)
            if SCREENS:
                shutil.copyfile(shot, Path(SCREENS) / shot.name)
            assert len(data) > 5_000, (shot.name, len(data))
            shot_width, shot_height, colours = png_colours(data)
            scale = SIZES[size].get("device_scale_factor", 1)
            assert shot_width == SIZES[size]["viewport"]["width"] * scale
            assert shot_height >= SIZES[size]["viewport"]["height"] * scale
            assert colours >= 16, (shot.name, colours)
        assert complaints(console) == []
    finally:
        context.close()


def test_png_reader_counts_colours() -> None:
    # a 2x2 picture, one row with the Sub filter and one with Paeth, in four colours
    rows = bytes([1, 10, 20, 30, 5, 5, 5]) + bytes([4, 0, 0, 0, 1, 1, 1])
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
    assert png_colours(png) == (2, 2, 3)
