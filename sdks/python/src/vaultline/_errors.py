"""The errors of the SDK: an API answer that is not a success, a connection that failed, a webhook that does not verify."""

from __future__ import annotations

import json
from typing import Any, Literal, Mapping

ErrorKind = Literal[
    "invalid_request",
    "authentication",
    "permission",
    "not_found",
    "conflict",
    "rate_limit",
    "server",
    "api",
]


class VaultlineError(Exception):
    """Every error the SDK raises."""


class APIError(VaultlineError):
    """The API answered with a status that is not a success (RFC 9457 problem details).

    Branch on ``code`` (stable), never on ``detail`` (its wording may change). ``field`` names the offending
    input (a dotted path) for input errors; quote ``request_id`` to support.
    """

    kind: ErrorKind = "api"

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        field: str | None = None,
        request_id: str | None = None,
        type: str | None = None,
        problem: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field
        self.request_id = request_id
        self.type = type
        self.problem = dict(problem) if problem is not None else None


class InvalidRequestError(APIError):
    """400, 413, 415, 422: the request is malformed or a field is invalid (``field`` names it)."""

    kind: ErrorKind = "invalid_request"


class AuthenticationError(APIError):
    """401: the API key is missing or invalid."""

    kind: ErrorKind = "authentication"


class PermissionDeniedError(APIError):
    """403: the key may not do this."""

    kind: ErrorKind = "permission"


class NotFoundError(APIError):
    """404: no such resource (or another merchant's, or the other mode's)."""

    kind: ErrorKind = "not_found"


class ConflictError(APIError):
    """409: the resource is not in a state that allows this, or an idempotent request is still running."""

    kind: ErrorKind = "conflict"


class RateLimitError(APIError):
    """429: the key used up its rate limit (after the SDK's retries)."""

    kind: ErrorKind = "rate_limit"


class ServerError(APIError):
    """5xx: the service failed (after the SDK's retries)."""

    kind: ErrorKind = "server"


class APIConnectionError(VaultlineError):
    """The API could not be reached (refused, reset, timed out) after every retry."""

    kind = "connection"


class WebhookVerificationError(VaultlineError):
    """A webhook whose headers, timestamp or signature do not verify with the endpoint's secret."""


_BY_STATUS: dict[int, type[APIError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    413: InvalidRequestError,
    415: InvalidRequestError,
    422: InvalidRequestError,
    429: RateLimitError,
}


def error_class(status: int) -> type[APIError]:
    """The error class of a status: one per kind, APIError for any other."""
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, APIError)


def problem_of(text: str) -> dict[str, Any] | None:
    """The problem document of an answer's body, or None when the body is not a JSON object."""
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def api_error(status: int, body: str, headers: Mapping[str, str]) -> APIError:
    """The error of an answer: its problem's code, detail, field, type and request id (else the X-Request-Id header)."""
    problem = problem_of(body)

    def text(key: str) -> str | None:
        value = problem.get(key) if problem is not None else None
        return value if isinstance(value, str) else None

    code = text("code") or f"http_{status}"
    detail = text("detail") or text("title") or f"The API answered {status}."
    return error_class(status)(
        status,
        code,
        detail,
        field=text("field"),
        request_id=text("request_id") or headers.get("x-request-id"),
        type=text("type"),
        problem=problem,
    )
