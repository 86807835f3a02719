"""The HTTP layer under every method: the key and base URL, Idempotency-Key on POSTs, retries, errors."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Literal, Mapping
from urllib.parse import quote

import httpx

from ._errors import APIConnectionError, api_error, problem_of
from ._retry import RetryPolicy, is_retried
from ._version import __version__

Answer = Literal["json", "binary", "raw", "none"]


class NotGiven:
    """The default of an optional argument: the field or parameter is left out of the request (None sends null)."""

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN = NotGiven()


def _path(value: object) -> str:
    """A path parameter, escaped (a / in an id cannot reach another route)."""
    return quote(str(value), safe="")


@dataclass(frozen=True)
class RawResponse:
    """An answer the SDK does not parse: a forwarded destination's, a processor's acknowledgment."""

    status: int
    headers: httpx.Headers
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)


def _given(mapping: Mapping[str, Any] | None) -> dict[str, Any]:
    return {key: value for key, value in (mapping or {}).items() if not isinstance(value, NotGiven) and value is not None}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Transport:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        policy: RetryPolicy,
        timeout: float,
        headers: Mapping[str, str] | None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.policy = policy
        self.timeout = timeout
        self.headers = {
            "X-API-Key": api_key,
            "User-Agent": f"vaultline-python/{__version__}",
            "Accept": "application/json",
            **(headers or {}),
        }

    def build(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None,
        headers: Mapping[str, Any] | None,
        body: Any,
        idempotency_key: str | None,
        extra_headers: Mapping[str, str] | None,
    ) -> httpx.Request:
        """The request, built once: every retry sends these same bytes and this same Idempotency-Key."""
        sent = {**self.headers, **{name: str(value) for name, value in _given(headers).items()}, **(extra_headers or {})}
        content: bytes | None = None
        if isinstance(body, Mapping) and not isinstance(body, NotGiven):
            body = {key: value for key, value in body.items() if not isinstance(value, NotGiven)}
        if not isinstance(body, NotGiven):
            content = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            sent.setdefault("Content-Type", "application/json")
        if method == "POST" and not any(name.lower() == "idempotency-key" for name in sent):
            sent["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        params: list[tuple[str, str | int | float | bool | None]] = [(name, _query_value(value)) for name, value in _given(query).items()]
        return httpx.Request(method, f"{self.base_url}{path}", params=params, headers=sent, content=content)

    def outcome(self, response: httpx.Response, answer: Answer) -> Any:
        if answer == "binary":
            return response.content
        if answer == "raw":
            return RawResponse(response.status_code, response.headers, response.content)
        if answer == "none" or not response.content:
            return None
        if "json" in response.headers.get("content-type", ""):
            return response.json()
        return response.text

    def retry_code(self, response: httpx.Response) -> str | None:
        if response.status_code != 409:
            return None
        problem = problem_of(response.text)
        code = problem.get("code") if problem else None
        return code if isinstance(code, str) else None

    def connection_error(self, request: httpx.Request, attempts: int, error: Exception) -> APIConnectionError:
        return APIConnectionError(f"{request.method} {request.url.path} failed after {attempts} attempt(s): {error!r}")


class SyncTransport(_Transport):
    def __init__(self, *, http_client: httpx.Client | None = None, sleep: Callable[[float], None] = time.sleep, **options: Any) -> None:
        super().__init__(**options)
        self.http = http_client or httpx.Client(timeout=self.timeout)
        self.sleep = sleep

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        body: Any = NOT_GIVEN,
        idempotency_key: str | None = None,
        extra_headers: Mapping[str, str] | None = None,
        answer: Answer = "json",
    ) -> Any:
        request = self.build(method, path, query=query, headers=headers, body=body, idempotency_key=idempotency_key, extra_headers=extra_headers)
        for attempt in range(self.policy.max_retries + 1):
            try:
                response = self.http.send(request)
            except httpx.TransportError as error:
                if attempt == self.policy.max_retries:
                    raise self.connection_error(request, attempt + 1, error) from error
                self.sleep(self.policy.backoff(attempt))
                continue
            if response.is_success:
                return self.outcome(response, answer)
            if attempt < self.policy.max_retries and is_retried(response.status_code, self.retry_code(response)):
                response.close()
                self.sleep(self.policy.delay(attempt, response.headers.get("retry-after")))
                continue
            raise api_error(response.status_code, response.text, response.headers)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def close(self) -> None:
        self.http.close()


class AsyncTransport(_Transport):
    def __init__(self, *, http_client: httpx.AsyncClient | None = None, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep, **options: Any) -> None:
        super().__init__(**options)
        self.http = http_client or httpx.AsyncClient(timeout=self.timeout)
        self.sleep = sleep

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        body: Any = NOT_GIVEN,
        idempotency_key: str | None = None,
        extra_headers: Mapping[str, str] | None = None,
        answer: Answer = "json",
    ) -> Any:
        request = self.build(method, path, query=query, headers=headers, body=body, idempotency_key=idempotency_key, extra_headers=extra_headers)
        for attempt in range(self.policy.max_retries + 1):
            try:
                response = await self.http.send(request)
            except httpx.TransportError as error:
                if attempt == self.policy.max_retries:
                    raise self.connection_error(request, attempt + 1, error) from error
                await self.sleep(self.policy.backoff(attempt))
                continue
            if response.is_success:
                return self.outcome(response, answer)
            if attempt < self.policy.max_retries and is_retried(response.status_code, self.retry_code(response)):
                await response.aclose()
                await self.sleep(self.policy.delay(attempt, response.headers.get("retry-after")))
                continue
            raise api_error(response.status_code, response.text, response.headers)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def close(self) -> None:
        await self.http.aclose()
