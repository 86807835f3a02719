"""The Python SDK against the real service: every merchant route of the OpenAPI document once, through the
SDK's typed methods (the shared scenario, sdks/test-vectors/contract-scenario.json), and a count of the routes
called with a 2xx answer. Needs VAULTLINE_BASE_URL and VAULTLINE_API_KEY (a test key of a fresh service): the
repository's test-e2e/sdk-python-embedded.test.ts starts the embedded service and runs this with them."""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

import httpx
import pytest

import vaultline
from contract_scenario import Receiver, Scenario, load_scenario

BASE_URL = os.environ.get("VAULTLINE_BASE_URL")
API_KEY = os.environ.get("VAULTLINE_API_KEY")
pytestmark = pytest.mark.skipif(not (BASE_URL and API_KEY), reason="VAULTLINE_BASE_URL and VAULTLINE_API_KEY name a running service")

ROUTES = [(operation.http_method, operation.path) for operation in vaultline.OPERATIONS.values()]
PATTERNS = [(method, path, re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")) for method, path in ROUTES]
SUMMARY: list[str] = []


def route_of(method: str, path: str) -> tuple[str, str] | None:
    """The route a request was for: the most specific template (fewest parameters) that matches its path."""
    matches = [(m, p) for m, p, pattern in PATTERNS if m == method and pattern.match(path)]
    return min(matches, key=lambda route: route[1].count("{")) if matches else None


def test_every_merchant_route_answers_2xx_through_the_sdk() -> None:
    answered: list[tuple[tuple[str, str] | None, int]] = []

    def record(response: httpx.Response) -> None:
        answered.append((route_of(response.request.method, response.request.url.path), response.status_code))

    receiver = Receiver().start()
    http = httpx.Client(timeout=60.0, event_hooks={"response": [record]})
    client = vaultline.Vaultline(API_KEY, base_url=BASE_URL, http_client=http)
    variables: dict[str, Any] = {
        "receiver": receiver,
        "receiver_url": receiver.url,
        "forward_url": os.environ.get("VAULTLINE_FORWARD_URL", ""),
        "forward_api_key": os.environ.get("VAULTLINE_FORWARD_API_KEY", ""),
    }
    scenario = Scenario(client, variables)
    try:
        for step in load_scenario():
            scenario.run_step(step)
    finally:
        receiver.stop()
        client.close()

    covered = {route for route, status in answered if route and 200 <= status < 300}
    missing = sorted(f"{method} {path}" for method, path in set(ROUTES) - covered)
    SUMMARY.append(f"Python SDK route coverage: {len(covered)} of {len(set(ROUTES))} merchant routes called through the SDK with a 2xx answer ({len(answered)} requests)")
    assert missing == []
    assert not [request for request in answered if request[0] is None], "every request was for a route of the document"


def test_the_async_client_reads_and_pages_the_same_service() -> None:
    async def run() -> tuple[list[Any], Any, Any]:
        async with vaultline.AsyncVaultline(API_KEY, base_url=BASE_URL) as client:
            captured = [payment async for payment in client.payments.list(status="captured", limit=2)]
            first = await client.payments.get(captured[0]["id"])
            customer = await client.customers.create(name="Async Ada")
            return captured, first, customer

    captured, first, customer = asyncio.run(run())
    assert captured and all(payment["status"] == "captured" for payment in captured)
    assert first["id"] == captured[0]["id"]
    assert customer["name"] == "Async Ada"


def test_a_refusal_is_a_typed_error_with_status_code_field_and_request_id() -> None:
    client = vaultline.Vaultline(API_KEY, base_url=BASE_URL)
    with pytest.raises(vaultline.NotFoundError) as missing:
        client.payments.get("0190f2a4-0000-7000-8000-000000000001")
    assert missing.value.status == 404 and missing.value.code.endswith("not_found") and missing.value.request_id
    assert missing.value.type and missing.value.type.endswith(f"#{missing.value.code}")
    with pytest.raises(vaultline.InvalidRequestError) as invalid:
        client.payments.create_one_off(amount=-1, currency_code="EUR", source={"type": "vaultline"})
    assert (invalid.value.status, invalid.value.field) == (422, "amount")
