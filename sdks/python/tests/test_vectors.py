"""The shared test vectors (sdks/test-vectors): every case, through the sync and the async client."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

import vaultline
from conftest import vectors
from scripted_server import scripted_server

KINDS: dict[str, type[vaultline.VaultlineError]] = {
    "invalid_request": vaultline.InvalidRequestError,
    "authentication": vaultline.AuthenticationError,
    "permission": vaultline.PermissionDeniedError,
    "not_found": vaultline.NotFoundError,
    "conflict": vaultline.ConflictError,
    "rate_limit": vaultline.RateLimitError,
    "server": vaultline.ServerError,
    "api": vaultline.APIError,
    "connection": vaultline.APIConnectionError,
}
KEY = "sk_test_vectors"


def headers_of(case: dict[str, Any]) -> dict[str, str]:
    values = {"webhook-id": case["id"], "webhook-timestamp": case["timestamp"], "webhook-signature": case["signature"]}
    upper = case.get("header_case") == "upper"
    return {(name.upper() if upper else name): value for name, value in values.items() if value is not None}


@pytest.mark.parametrize("case", vectors("webhooks"), ids=lambda case: case["name"])
def test_webhook_vector(case: dict[str, Any]) -> None:
    payload = case["payload"].encode("utf-8")
    if case["valid"]:
        event = vaultline.webhooks.verify(payload, headers_of(case), case["secret"], now=case["now"])
        assert event == __import__("json").loads(case["payload"])
    else:
        with pytest.raises(vaultline.WebhookVerificationError):
            vaultline.webhooks.verify(payload, headers_of(case), case["secret"], now=case["now"])


def assert_error(error: BaseException, expected: dict[str, Any]) -> None:
    assert type(error) is KINDS[expected["kind"]] or (expected["kind"] == "api" and type(error) is vaultline.APIError)
    if expected["kind"] == "connection":
        return
    assert isinstance(error, vaultline.APIError)
    assert error.kind == expected["kind"]
    for name in ("status", "code", "detail", "field", "request_id", "type"):
        if name in expected:
            assert getattr(error, name) == expected[name], name


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("case", vectors("errors"), ids=lambda case: case["name"])
def test_error_vector(case: dict[str, Any], mode: str) -> None:
    with scripted_server([case["answer"]]) as (url, _):
        if mode == "sync":
            with pytest.raises(vaultline.VaultlineError) as raised:
                vaultline.Vaultline(KEY, base_url=url, max_retries=0).request("GET", "/vector")
        else:
            client = vaultline.AsyncVaultline(KEY, base_url=url, max_retries=0)
            with pytest.raises(vaultline.VaultlineError) as raised:
                asyncio.run(client.request("GET", "/vector"))
    assert_error(raised.value, case["error"])


def run_retry_case(case: dict[str, Any], mode: str) -> tuple[Any, list[float], Any]:
    request = case["request"]
    waits: list[float] = []
    with scripted_server(case["answers"]) as (url, script):
        options: dict[str, Any] = {"base_url": url, "max_retries": case["max_retries"]}
        call = {"body": request["body"]} if "body" in request else {}
        if "idempotency_key" in request:
            call["idempotency_key"] = request["idempotency_key"]
        outcome: Any
        try:
            if mode == "sync":
                outcome = vaultline.Vaultline(KEY, sleep=waits.append, **options).request(request["method"], request["path"], **call)
            else:

                async def sleep(seconds: float) -> None:
                    waits.append(seconds)

                outcome = asyncio.run(vaultline.AsyncVaultline(KEY, sleep=sleep, **options).request(request["method"], request["path"], **call))
        except vaultline.VaultlineError as error:
            outcome = error
    return outcome, waits, script.seen


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("case", vectors("retries"), ids=lambda case: case["name"])
def test_retry_vector(case: dict[str, Any], mode: str) -> None:
    outcome, waits, seen = run_retry_case(case, mode)
    expect = case["expect"]
    assert len(seen) == expect["requests"]
    assert len(waits) == len(expect["waits_ms"])
    for wait, bounds in zip(waits, expect["waits_ms"]):
        assert bounds["min"] <= round(wait * 1000) <= bounds["max"]
    keys = {request.headers.get("idempotency-key") for request in seen}
    assert len(keys) == 1, "every attempt carries the same Idempotency-Key (or none)"
    key = keys.pop()
    if expect["idempotency_key"] == "generated":
        assert key is not None and re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", key)
    else:
        assert key == expect["idempotency_key"]
    assert len({request.body for request in seen}) == 1, "every attempt carries the same body"
    if "body" in case["request"]:
        assert __import__("json").loads(seen[0].body) == case["request"]["body"]
    if "result" in expect:
        assert outcome == expect["result"]
    else:
        assert isinstance(outcome, vaultline.VaultlineError)
        assert_error(outcome, expect["error"])
