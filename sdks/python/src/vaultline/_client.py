"""The clients: Vaultline (sync) and AsyncVaultline, on httpx."""

from __future__ import annotations

import os
import re
from typing import Any, Awaitable, Callable, Literal, Mapping

import httpx

from ._resources import AsyncResources, SyncResources
from ._retry import RetryPolicy
from ._transport import NOT_GIVEN, Answer, AsyncTransport, SyncTransport
from .webhooks import Webhooks

DEFAULT_BASE_URL = "http://localhost:8080"
"""The embedded service (pnpm start)."""

Mode = Literal["test", "live"]
_KEY = re.compile(r"^sk_(test|live)_")


def _settings(api_key: str | None, base_url: str | None) -> tuple[str, str, Mode]:
    key = api_key if api_key is not None else os.environ.get("VAULTLINE_API_KEY", "")
    match = _KEY.match(key)
    if not match:
        raise ValueError("A Vaultline API key starts with sk_test_ or sk_live_ (pass api_key or set VAULTLINE_API_KEY).")
    url = base_url or os.environ.get("VAULTLINE_BASE_URL") or DEFAULT_BASE_URL
    return key, url, "live" if match.group(1) == "live" else "test"


class Vaultline(SyncResources):
    """The merchant API, every route a method of a resource::

        client = Vaultline("sk_test_…", base_url="https://vault.example.com")
        payment = client.payments.create_one_off(amount=1999, currency_code="EUR", source={"type": "vaultline"})
        for payment in client.payments.list(status="captured"):
            ...

    The key and base URL default to VAULTLINE_API_KEY and VAULTLINE_BASE_URL. Every POST carries an
    Idempotency-Key (yours, or a random UUID), the same on every retry; network errors, 409
    idempotency_key_in_use, 429 (after Retry-After) and 5xx are retried ``max_retries`` times with backoff
    (``sleep`` is how the client waits between attempts: tests record the waits instead).
    """

    webhooks = Webhooks()

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        max_retries: int = 2,
        initial_delay: float = 0.5,
        max_delay: float = 20.0,
        timeout: float = 60.0,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        key, url, self.mode = _settings(api_key, base_url)
        self._transport = SyncTransport(
            api_key=key,
            base_url=url,
            policy=RetryPolicy(max_retries, initial_delay, max_delay),
            timeout=timeout,
            headers=headers,
            http_client=http_client,
            **({"sleep": sleep} if sleep else {}),
        )
        super().__init__(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def livemode(self) -> bool:
        return self.mode == "live"

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = NOT_GIVEN,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        answer: Answer = "json",
    ) -> Any:
        """Any route, untyped (one newer than this SDK): the same key, retries, Idempotency-Key and errors."""
        return self._transport.request(method.upper(), path, query=query, body=body, idempotency_key=idempotency_key, extra_headers=headers, answer=answer)

    def close(self) -> None:
        self._transport.close()

    def __enter__(self) -> Vaultline:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AsyncVaultline(AsyncResources):
    """The merchant API for asyncio: ``await client.payments.get(id)``, ``async for p in client.payments.list()``."""

    webhooks = Webhooks()

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        max_retries: int = 2,
        initial_delay: float = 0.5,
        max_delay: float = 20.0,
        timeout: float = 60.0,
        headers: Mapping[str, str] | None = None,
        http_client: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        key, url, self.mode = _settings(api_key, base_url)
        self._transport = AsyncTransport(
            api_key=key,
            base_url=url,
            policy=RetryPolicy(max_retries, initial_delay, max_delay),
            timeout=timeout,
            headers=headers,
            http_client=http_client,
            **({"sleep": sleep} if sleep else {}),
        )
        super().__init__(self._transport)

    @property
    def base_url(self) -> str:
        return self._transport.base_url

    @property
    def livemode(self) -> bool:
        return self.mode == "live"

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = NOT_GIVEN,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        answer: Answer = "json",
    ) -> Any:
        """Any route, untyped: the same key, retries, Idempotency-Key and errors."""
        return await self._transport.request(method.upper(), path, query=query, body=body, idempotency_key=idempotency_key, extra_headers=headers, answer=answer)

    async def close(self) -> None:
        await self._transport.close()

    async def __aenter__(self) -> AsyncVaultline:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()
