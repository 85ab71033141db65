"""The HTML pages a person sees when a tool call needs their own upstream credentials.

``signin_page`` is the page a URL-mode elicitation points at: it asks (optionally) for the person's
MCP access token, so the server can check they are the principal the link was made for, then either
for the credentials of a key-entry scheme (``Field``s) or for a click that starts the OAuth sign-in.
``done_page`` and ``problem_page`` end the flow. Rendering only: no routing, no storage. Every
interpolated string is HTML-escaped; the pages hold no script and load nothing, so the
``security_headers`` they are served with allow just their one inline style, by hash. The caller
widens ``form-action`` with the authorization server's origin when the form's POST answers with a
redirect there: Chromium applies ``form-action`` to the redirects that follow a submission.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

__all__ = [
    "CONTENT_TYPE",
    "SECURITY_HEADERS",
    "STYLE",
    "STYLE_HASH",
    "Field",
    "done_page",
    "problem_page",
    "security_headers",
    "signin_page",
]

CONTENT_TYPE: Final = b"text/html; charset=utf-8"
IDENTITY_FIELD: Final = "mcp_token"
# the hidden input that ties a submission to its link
HIDDEN_FIELD: Final = "form_token"

STYLE: Final = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body {
  margin: 0; min-height: 100vh; padding: 3rem 1rem;
  background: #f3f4f6; color: #1f2328;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main {
  max-width: 30rem; margin: 0 auto; padding: 2rem;
  background: #fff; border: 1px solid #d8dce1; border-radius: 12px;
  box-shadow: 0 1px 3px rgb(0 0 0 / 6%), 0 8px 24px rgb(0 0 0 / 6%);
}
h1 { margin: 0 0 .75rem; font-size: 1.5rem; line-height: 1.25; overflow-wrap: anywhere; }
p { margin: 0 0 1rem; overflow-wrap: anywhere; }
main > :last-child { margin-bottom: 0; }
.muted { color: #57606a; font-size: .9375rem; }
code { font: .875em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: #eef0f3; padding: .1em .35em; border-radius: 4px; }
.badge {
  display: inline-block; width: 2.5rem; height: 2.5rem; margin-bottom: 1rem;
  border-radius: 50%; text-align: center; font: 700 1.375rem/2.5rem system-ui, sans-serif;
}
.ok { background: #dafbe1; color: #116329; }
.warn { background: #fff1cc; color: #7a4d00; }
.alert {
  margin: 0 0 1.25rem; padding: .75rem 1rem; border: 1px solid #f0b7b1;
  border-left: 4px solid #c62828; border-radius: 6px; background: #fdeceb; color: #8a1c13;
  overflow-wrap: anywhere;
}
fieldset { margin: 0 0 1.25rem; padding: 0; border: 0; min-width: 0; }
legend {
  float: left; width: 100%; margin: 0 0 .375rem; padding: 0; font-weight: 600; font-size: 1.125rem;
}
legend + * { clear: both; }
fieldset + fieldset { padding-top: 1.25rem; border-top: 1px solid #e4e7eb; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; font-size: .9375rem; }
.hint { margin: .375rem 0 0; color: #57606a; font-size: .875rem; }
input {
  display: block; width: 100%; padding: .625rem .75rem; font: inherit; color: inherit;
  background: #fff; border: 1px solid #8c959f; border-radius: 6px;
}
input:focus { outline: 3px solid #9ec5fe; outline-offset: 0; border-color: #0b57d0; }
button {
  display: block; width: 100%; margin-top: 1.5rem; padding: .75rem 1rem;
  font: inherit; font-weight: 600; color: #fff; background: #0b57d0;
  border: 0; border-radius: 6px; cursor: pointer;
}
button:hover { background: #0a4ab3; }
button:focus-visible { outline: 3px solid #9ec5fe; outline-offset: 2px; }
.foot { margin: 1.5rem 0 0; padding-top: 1rem; border-top: 1px solid #e4e7eb; }
@media (max-width: 32rem) {
  body { padding: 0; background: #fff; }
  main { padding: 1.5rem 1.25rem 2rem; border: 0; border-radius: 0; box-shadow: none; }
}
"""

STYLE_HASH: Final = "sha256-" + base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()


@dataclass(frozen=True, slots=True)
class Field:
    """One input of the key-entry form: ``name`` is the form field name the POST carries."""

    name: str
    label: str
    secret: bool
    hint: str = ""


def security_headers(form_action: str = "'self'") -> tuple[tuple[bytes, bytes], ...]:
    """The response headers of every page; ``form_action`` is the CSP ``form-action`` source list.

    Raises ``ValueError`` when ``form_action`` could end the directive or the header.
    """
    if (
        not form_action.strip()
        or any(c in form_action for c in ";,")
        or not (form_action.isascii() and form_action.isprintable())
    ):
        raise ValueError("form_action must be a CSP source list (printable ASCII, no ';' or ',')")
    policy = (
        f"default-src 'none'; style-src '{STYLE_HASH}'; form-action {form_action}; "
        "frame-ancestors 'none'; base-uri 'none'"
    )
    return (
        (b"content-type", CONTENT_TYPE),
        (b"content-security-policy", policy.encode("ascii")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"cache-control", b"no-store"),
        (b"x-frame-options", b"DENY"),
    )


SECURITY_HEADERS: Final = security_headers()


def _e(text: str) -> str:
    return escape(text, quote=True)


def _document(title: str, body: str) -> bytes:
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="referrer" content="no-referrer">\n'
        f"<title>{_e(title)}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n{body}</main>\n</body>\n</html>\n"
    ).encode("utf-8", errors="backslashreplace")


def _input(field: Field, index: int) -> str:
    if field.secret:
        kind, autocomplete = "password", "off"
    else:
        kind, autocomplete = "text", "username" if field.name == "username" else "off"
    ident = f"field-{index}"
    described = f' aria-describedby="{ident}-hint"' if field.hint else ""
    hint = f'<p class="hint" id="{ident}-hint">{_e(field.hint)}</p>\n' if field.hint else ""
    return (
        f'<label for="{ident}">{_e(field.label)}</label>\n'
        f'<input id="{ident}" name="{_e(field.name)}" type="{kind}" '
        f'autocomplete="{autocomplete}" spellcheck="false" autocapitalize="none"{described}>\n'
        f"{hint}"
    )


def _check_fields(fields: Sequence[Field], *, oauth: bool) -> None:
    names = [field.name for field in fields]
    if oauth and names:
        raise ValueError("an OAuth sign-in page asks for no credential fields")
    if not oauth and not names:
        raise ValueError("a key-entry page needs at least one field")
    if len(set(names)) != len(names) or {IDENTITY_FIELD, HIDDEN_FIELD} & set(names):
        raise ValueError(f"field names must be unique and not {IDENTITY_FIELD} or {HIDDEN_FIELD}")


def signin_page(
    *,
    api: str,
    scheme: str,
    action: str,
    form_token: str,
    fields: Sequence[Field],
    identity: bool,
    oauth: bool,
    error: str = "",
) -> bytes:
    """The page of a URL-mode elicitation: key entry (``fields``) or the start of an OAuth sign-in.

    Raises ``ValueError`` for fields that contradict ``oauth`` or clash with the form's own names.
    """
    _check_fields(fields, oauth=oauth)
    name = _e(api)
    if oauth:
        purpose = f"This MCP server needs your permission to use <strong>{name}</strong> as you"
        carry = f"You sign in at {name} itself; the tokens it grants go straight to this server"
    else:
        purpose = f"This MCP server needs your own credentials for <strong>{name}</strong>"
        carry = "They go straight to this server"
    parts = [
        f"<h1>Connect {name}</h1>\n",
        f"<p>{purpose} (security scheme <code>{_e(scheme)}</code>) to carry out your request. "
        f"{carry}, are stored encrypted, and never reach the AI model or your MCP client.</p>\n",
    ]
    if error:
        parts.append(f'<div class="alert" role="alert">{_e(error)}</div>\n')
    parts.append(
        f'<form method="post" action="{_e(action)}" autocomplete="off">\n'
        f'<input type="hidden" name="{HIDDEN_FIELD}" value="{_e(form_token)}">\n'
    )
    if identity:
        token = Field(
            IDENTITY_FIELD,
            "Your MCP access token",
            secret=True,
            hint="The token your MCP client uses to connect to this server. It shows that you are "
            "the person whose request needs this connection.",
        )
        parts.append(
            f"<fieldset>\n<legend>Confirm it’s you</legend>\n{_input(token, 0)}</fieldset>\n"
        )
    if oauth:
        parts.append(f'<button type="submit">Continue to {name} sign-in</button>\n')
    else:
        inputs = "".join(_input(field, index) for index, field in enumerate(fields, start=1))
        parts.append(
            f"<fieldset>\n<legend>Your {name} credentials</legend>\n{inputs}</fieldset>\n"
            '<button type="submit">Save</button>\n'
        )
    parts.append(
        "</form>\n"
        '<p class="foot muted">Not expecting this page? Close the tab: nothing is saved '
        "until you submit the form.</p>\n"
    )
    return _document(f"Connect {api}", "".join(parts))


def done_page(*, api: str, scheme: str) -> bytes:
    """The page after the credentials are stored: the person goes back to their MCP client."""
    name = _e(api)
    body = (
        '<div class="badge ok" aria-hidden="true">✓</div>\n'
        "<h1>Connected</h1>\n"
        f"<p>This MCP server can now use <strong>{name}</strong> as you "
        f"(security scheme <code>{_e(scheme)}</code>).</p>\n"
        "<p>You can close this tab and go back to your MCP client, then retry the request.</p>\n"
    )
    return _document(f"Connected to {api}", body)


def problem_page(*, title: str, message: str) -> bytes:
    """The page for a link that cannot be completed (expired, used, unknown, or someone else's)."""
    body = (
        '<div class="badge warn" aria-hidden="true">!</div>\n'
        f"<h1>{_e(title)}</h1>\n"
        f"<p>{_e(message)}</p>\n"
        '<p class="muted">Go back to your MCP client and ask the assistant to retry the request: '
        "it will give you a new link.</p>\n"
    )
    return _document(title, body)
