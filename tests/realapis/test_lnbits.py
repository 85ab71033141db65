"""LNbits 1.6 (PyPI: FastAPI, SQLite, the FakeWallet funding source; its live OpenAPI 3.1 document)
driven through a generated MCP server.

LNbits signs a wallet's calls with that wallet's key (``X-API-KEY``: its admin key spends, its
invoice key only receives and reads) and an account's and the administrator's calls with an access
token (a JWT: ``HTTPBearer``, or ``OAuth2PasswordBearer`` whose password flow's token endpoint reads
JSON, not the form OAuth 2.0 sends). The generated server is given the first wallet's admin key and
the super user's token, as a user would configure it:

- its restart, a GET, is a tool that asks before it acts and neither a resource nor a template
  (clients read every listed resource: reading it restarted LNbits);
- a payment read by its hash carries the wallet's key, which the document declares as an
  ``x-api-key`` header parameter of an operation that requires no scheme, and LNbits then answers
  the payment's details, which it gives only to the wallet's own key;
- a password sign-in that fails (LNbits's endpoint answers the form 400) gives way to the bearer
  token set beside it, and alone says the endpoint did not read the form;
- a second wallet is made, an invoice of it paid from the first wallet's admin key, the balances
  read directly; an invoice key refused to pay says which variable it was sent from.

Every effect is checked with a direct request to LNbits.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp import Client

from tests.realapis import lnbits
from tests.realapis.conftest import (
    LiveApi,
    every_tool,
    mcp_client,
    result_json,
    structured,
    texts,
)

pytestmark = pytest.mark.realapi


def _direct(live: LiveApi, *, key: str | None = None, token: str | None = None) -> httpx.Client:
    headers = {"X-Api-Key": key} if key else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=live.root_url, headers=headers, timeout=30)


def _account(live: LiveApi) -> dict[str, Any]:
    """The super user as LNbits answers it: its id and wallets with their keys."""
    with _direct(live, token=live.credentials["HTTP_BEARER_TOKEN"]) as direct:
        found = direct.get("/api/v1/auth")
    found.raise_for_status()
    account: dict[str, Any] = found.json()
    return account


def _balance(live: LiveApi, key: str) -> int:
    """A wallet's balance in millisatoshis, read with one of its keys."""
    with _direct(live, key=key) as direct:
        found = direct.get("/api/v1/wallet")
    found.raise_for_status()
    balance: int = found.json()["balance"]
    return balance


async def _resources(client: Client) -> tuple[list[str], list[str]]:
    """Every page of ``resources/list`` and ``resources/templates/list``: URIs, templates."""
    uris: list[str] = []
    cursor: str | None = None
    while True:
        page = await client.list_resources(cursor=cursor)
        uris += [str(resource.uri) for resource in page.resources]
        if (cursor := page.next_cursor) is None:
            break
    templates: list[str] = []
    while True:
        listed = await client.list_resource_templates(cursor=cursor)
        templates += [template.uri_template for template in listed.resource_templates]
        if (cursor := listed.next_cursor) is None:
            return uris, templates


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_its_restart_is_a_tool_that_asks_and_no_resource(
    lnbits_api: LiveApi, mode: str
) -> None:
    spec = lnbits_api.spec
    assert spec["openapi"] == "3.1.0"
    assert "servers" not in spec  # the base URL says where it is
    restart = spec["paths"]["/admin/api/v1/restart"]["get"]
    assert restart["operationId"] == "api_restart_server_admin_api_v1_restart_get"
    async with mcp_client(lnbits_api.stdio(**lnbits_api.credentials), mode) as client:
        uris, templates = await _resources(client)
        tools = await every_tool(client)
    # reads stay resources (the wallet, the settings); the restart is not read by a client that
    # preloads every resource, nor offered as a template
    assert {"lnbits://api/v1/wallet", "lnbits://admin/api/v1/settings"} <= set(uris)
    assert [uri for uri in uris if "restart" in uri] == []
    assert [template for template in templates if "restart" in template] == []
    annotations = tools["api_restart_server"].annotations
    assert annotations is not None
    assert (annotations.read_only_hint, annotations.destructive_hint) == (False, True)
    # LNbits still runs: nothing restarted it
    with _direct(lnbits_api) as direct:
        assert direct.get("/api/v1/health").status_code == 200


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_payment_read_by_its_hash_carries_the_wallet_key(
    lnbits_api: LiveApi, mode: str
) -> None:
    # the document declares the key the APIKeyHeader scheme sends as a parameter of its own, on
    # an operation that requires no scheme
    reading = lnbits_api.spec["paths"]["/api/v1/payments/{payment_hash}"]["get"]
    assert "security" not in reading
    assert {"name": "x-api-key", "in": "header"}.items() <= reading["parameters"][1].items()
    memo = f"realapi read {mode}"
    async with mcp_client(lnbits_api.stdio(**lnbits_api.credentials), mode) as client:
        tools = await every_tool(client)
        made = await client.call_tool(
            "api_payments_create", {"out": False, "amount": 100, "memo": memo}
        )
        assert not made.is_error, texts(made)
        invoice = result_json(made)
        read = await client.call_tool("api_payment", {"payment_hash": invoice["payment_hash"]})
    assert (invoice["memo"], invoice["amount"], invoice["status"]) == (memo, 100_000, "pending")
    assert not read.is_error, texts(read)
    found = result_json(read)
    key = lnbits_api.credentials["API_KEY_HEADER_KEY"]
    path = f"/api/v1/payments/{invoice['payment_hash']}"
    with _direct(lnbits_api, key=key) as direct:
        owned = direct.get(path).json()
    with _direct(lnbits_api, token=lnbits_api.credentials["HTTP_BEARER_TOKEN"]) as direct:
        without_key = direct.get(path).json()
    # LNbits gives the details to the wallet's own key only
    assert without_key == {"paid": False, "preimage": None}
    assert found == owned
    assert (found["paid"], found["status"]) == (False, "pending")
    details = found["details"]
    assert (details["payment_hash"], details["memo"]) == (invoice["payment_hash"], memo)
    assert (details["wallet_id"], details["bolt11"]) == (invoice["wallet_id"], invoice["bolt11"])
    # the key is the credential's, set once: not an argument of the tool
    assert set(tools["api_payment"].input_schema["properties"]) == {"payment_hash", "_select"}


async def test_a_password_sign_in_that_fails_gives_way_to_the_bearer_token(
    lnbits_api: LiveApi,
) -> None:
    token_url = f"{lnbits_api.root_url}/api/v1/auth"
    # LNbits's token endpoint reads JSON: the form a password grant is answers 400
    with _direct(lnbits_api) as direct:
        form = direct.post(
            "/api/v1/auth",
            data={"grant_type": "password", "username": lnbits.ADMIN, "password": lnbits.PASSWORD},
        )
    assert form.status_code == 400, form.text
    (refusal,) = form.json()["detail"]
    assert (refusal["loc"], refusal["msg"]) == (["body"], "value is not a valid dict")
    signing_in = {
        "OAUTH2_PASSWORD_BEARER_USERNAME": lnbits.ADMIN,
        "OAUTH2_PASSWORD_BEARER_PASSWORD": lnbits.PASSWORD,
    }
    token = lnbits_api.credentials["HTTP_BEARER_TOKEN"]
    async with mcp_client(lnbits_api.stdio(**signing_in, HTTP_BEARER_TOKEN=token)) as client:
        both = await client.call_tool("get_auth_user", {})
    async with mcp_client(lnbits_api.stdio(**signing_in)) as client:
        alone = await client.call_tool("get_auth_user", {})
    assert not both.is_error, texts(both)
    user = result_json(both)
    account = _account(lnbits_api)
    assert (user["id"], user["username"]) == (account["id"], lnbits.ADMIN)
    assert alone.is_error
    assert texts(alone) == [
        f"could not get an access token for 'OAuth2PasswordBearer' from the token endpoint "
        f"{token_url}: HTTP 400 (body: {refusal['msg']}); the endpoint did not read the form an "
        "OAuth 2.0 token request is, so the credentials were not checked"
    ]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_invoice_of_a_second_wallet_is_paid_from_the_first(
    lnbits_api: LiveApi, mode: str
) -> None:
    account = _account(lnbits_api)
    first = account["wallets"][0]
    key = lnbits_api.credentials["API_KEY_HEADER_KEY"]
    assert first["adminkey"] == key
    # the first wallet is credited by the super user (FakeWallet: no node to fund it from)
    with _direct(lnbits_api, token=lnbits_api.credentials["HTTP_BEARER_TOKEN"]) as direct:
        credited = direct.put("/users/api/v1/balance", json={"id": first["id"], "amount": 1000})
    assert credited.status_code == 200, credited.text
    before = _balance(lnbits_api, key)
    name = f"Savings {mode}"
    async with mcp_client(lnbits_api.stdio(**lnbits_api.credentials), mode) as client:
        made = await client.call_tool("api_create_wallet", {"name": name})
    assert not made.is_error, texts(made)
    second = result_json(made)
    assert (second["name"], second["user"], second["balance_msat"]) == (name, account["id"], 0)
    wallets = {wallet["id"]: wallet["name"] for wallet in _account(lnbits_api)["wallets"]}
    assert wallets[second["id"]] == name
    # the second wallet's invoice key is all it takes to receive
    async with mcp_client(lnbits_api.stdio(API_KEY_HEADER_KEY=second["inkey"]), mode) as client:
        asked = await client.call_tool(
            "api_payments_create", {"out": False, "amount": 100, "memo": f"to {name}"}
        )
    assert not asked.is_error, texts(asked)
    invoice = result_json(asked)
    assert invoice["wallet_id"] == second["id"]
    async with mcp_client(lnbits_api.stdio(**lnbits_api.credentials), mode) as client:
        paid = await client.call_tool(
            "api_payments_create", {"out": True, "bolt11": invoice["bolt11"]}
        )
    assert not paid.is_error, texts(paid)
    payment = result_json(paid)
    assert structured(paid, mode) == payment
    assert (payment["payment_hash"], payment["wallet_id"]) == (
        invoice["payment_hash"],
        first["id"],
    )
    assert (payment["amount"], payment["status"]) == (-100_000, "success")
    assert _balance(lnbits_api, second["inkey"]) == 100_000
    assert _balance(lnbits_api, key) == before - 100_000
    # the second wallet sees it paid, read with its own key beside the account's token
    token = lnbits_api.credentials["HTTP_BEARER_TOKEN"]
    receiving = lnbits_api.stdio(API_KEY_HEADER_KEY=second["inkey"], HTTP_BEARER_TOKEN=token)
    async with mcp_client(receiving, mode) as client:
        seen = await client.call_tool("api_payment", {"payment_hash": invoice["payment_hash"]})
    assert not seen.is_error, texts(seen)
    with _direct(lnbits_api, key=second["inkey"]) as direct:
        received = direct.get(f"/api/v1/payments/{invoice['payment_hash']}").json()
    assert (received["paid"], received["details"]["status"]) == (True, "success")
    assert received["details"]["wallet_id"] == second["id"]
    assert result_json(seen) == received


async def test_an_invoice_key_refused_to_pay_names_the_variable_it_came_from(
    lnbits_api: LiveApi,
) -> None:
    first = _account(lnbits_api)["wallets"][0]
    async with mcp_client(lnbits_api.stdio(**lnbits_api.credentials)) as client:
        asked = await client.call_tool(
            "api_payments_create", {"out": False, "amount": 21, "memo": "not to be paid"}
        )
    assert not asked.is_error, texts(asked)
    invoice = result_json(asked)
    before = _balance(lnbits_api, first["inkey"])
    async with mcp_client(lnbits_api.stdio(API_KEY_HEADER_KEY=first["inkey"])) as client:
        refused = await client.call_tool(
            "api_payments_create", {"out": True, "bolt11": invoice["bolt11"]}
        )
    assert refused.is_error
    assert texts(refused) == [
        'Upstream returned 403 Forbidden: {"detail":"Invoice (or Admin) key required."}\n'
        "The API refused this to the credentials of LNBITS_API_KEY_HEADER_KEY: they may be "
        "invalid or lack a permission."
    ]
    assert _balance(lnbits_api, first["inkey"]) == before
    with _direct(lnbits_api, key=first["inkey"]) as direct:
        unpaid = direct.get(f"/api/v1/payments/{invoice['payment_hash']}").json()
    assert (unpaid["paid"], unpaid["details"]["status"]) == (False, "pending")
