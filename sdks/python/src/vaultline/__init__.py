"""The Python client of the Vaultline merchant API."""

from . import types, webhooks
from ._client import DEFAULT_BASE_URL, AsyncVaultline, Mode, Vaultline
from ._errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    ConflictError,
    ErrorKind,
    InvalidRequestError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    VaultlineError,
    WebhookVerificationError,
)
from ._pagination import AsyncPage, SyncPage
from ._resources import OPERATIONS, Operation
from ._retry import RetryPolicy
from ._transport import NOT_GIVEN, NotGiven, RawResponse
from ._version import __version__

__all__ = [
    "APIConnectionError",
    "APIError",
    "AsyncPage",
    "AsyncVaultline",
    "AuthenticationError",
    "ConflictError",
    "DEFAULT_BASE_URL",
    "ErrorKind",
    "InvalidRequestError",
    "Mode",
    "NOT_GIVEN",
    "NotFoundError",
    "NotGiven",
    "OPERATIONS",
    "Operation",
    "PermissionDeniedError",
    "RateLimitError",
    "RawResponse",
    "RetryPolicy",
    "ServerError",
    "SyncPage",
    "Vaultline",
    "VaultlineError",
    "WebhookVerificationError",
    "__version__",
    "types",
    "webhooks",
]
