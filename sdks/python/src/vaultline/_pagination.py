"""Cursor pagination as iterators: every item of a list, page after page, fetched as the loop asks for them."""

from __future__ import annotations

from typing import Any, AsyncIterator, Generic, Iterator, Mapping, TypeVar

from ._transport import AsyncTransport, SyncTransport

T = TypeVar("T")


class _Page(Generic[T]):
    def __init__(
        self,
        transport: Any,
        path: str,
        *,
        query: Mapping[str, Any] | None,
        headers: Mapping[str, Any] | None,
        extra_headers: Mapping[str, str] | None,
    ) -> None:
        self._transport = transport
        self._path = path
        self._query = dict(query or {})
        self._headers = headers
        self._extra_headers = extra_headers

    def _query_after(self, cursor: str | None) -> dict[str, Any]:
        return {**self._query, "starting_after": cursor} if cursor else self._query

    @staticmethod
    def _next_cursor(page: Mapping[str, Any]) -> str | None:
        cursor = page.get("next_cursor")
        return cursor if page.get("has_more") and isinstance(cursor, str) and cursor else None


class SyncPage(_Page[T]):
    """``for payment in client.payments.list(status="captured")``: follows next_cursor (as starting_after) until has_more is false."""

    def __init__(self, transport: SyncTransport, path: str, **options: Any) -> None:
        super().__init__(transport, path, **options)

    def __iter__(self) -> Iterator[T]:
        cursor: str | None = None
        while True:
            page = self._transport.request("GET", self._path, query=self._query_after(cursor), headers=self._headers, extra_headers=self._extra_headers)
            yield from page["data"]
            cursor = self._next_cursor(page)
            if cursor is None:
                return


class AsyncPage(_Page[T]):
    """``async for payment in client.payments.list(status="captured")``: follows next_cursor until has_more is false."""

    def __init__(self, transport: AsyncTransport, path: str, **options: Any) -> None:
        super().__init__(transport, path, **options)

    async def __aiter__(self) -> AsyncIterator[T]:
        cursor: str | None = None
        while True:
            page = await self._transport.request("GET", self._path, query=self._query_after(cursor), headers=self._headers, extra_headers=self._extra_headers)
            for item in page["data"]:
                yield item
            cursor = self._next_cursor(page)
            if cursor is None:
                return
