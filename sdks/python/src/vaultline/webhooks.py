"""Webhook verification, the Standard Webhooks way, with the standard library only.

Each delivery carries ``webhook-id``, ``webhook-timestamp`` (Unix seconds) and ``webhook-signature``
(space-separated ``v1,<base64 HMAC-SHA256>`` entries: during a secret's rotation, one per secret). The signed
content is ``{id}.{timestamp}.{body}`` over the body's exact bytes; the key is the base64 after ``whsec_``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, cast

from typing_extensions import TypedDict

from ._errors import WebhookVerificationError


class WebhookEvent(TypedDict, total=False):
    """A webhook's body: the event's type (payment.captured…), when it happened, its mode and its data
    (the same data as GET /events/{event_id} answers)."""

    type: str
    timestamp: str
    livemode: bool
    data: dict[str, Any]

DEFAULT_TOLERANCE = 300
"""Seconds a delivery's timestamp may be away from now (older: a replay; newer: a clock far off)."""

_HEADERS = ("webhook-id", "webhook-timestamp", "webhook-signature")


def _header(headers: Any, name: str) -> str | None:
    """A header of a dict (any case), of Flask's/werkzeug's Headers or of http.client's message."""
    getter = getattr(headers, "get", None)
    value = getter(name) if getter is not None else None
    if value is None and isinstance(headers, Mapping):
        value = next((v for k, v in headers.items() if isinstance(k, str) and k.lower() == name), None)
    if isinstance(value, (list, tuple)):
        value = " ".join(str(v) for v in value)
    return value if isinstance(value, str) else None


def _key(secret: str) -> bytes:
    try:
        return base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("The webhook secret is not whsec_ followed by base64.") from error


def sign(payload: str | bytes, webhook_id: str, timestamp: int, secret: str) -> str:
    """The ``v1,<base64>`` signature of a delivery (what the service sends; useful in tests)."""
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    digest = hmac.new(_key(secret), f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify(
    payload: str | bytes,
    headers: Any,
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> WebhookEvent:
    """Checks a delivery with the endpoint's ``whsec_…`` secret and returns its event.

    Pass the body exactly as received (Flask: ``request.get_data()``): a body parsed and serialized again
    does not verify. Raises WebhookVerificationError naming what failed.
    """
    values = {name: _header(headers, name) for name in _HEADERS}
    for name, value in values.items():
        if not value:
            raise WebhookVerificationError(f"The {name} header is missing.")
    webhook_id, timestamp_text, signatures = (cast(str, values[name]) for name in _HEADERS)
    try:
        timestamp = int(timestamp_text)
    except ValueError as error:
        raise WebhookVerificationError("The webhook-timestamp header is not a number of seconds.") from error
    current = int(time.time() if now is None else now)
    if current - timestamp > tolerance:
        raise WebhookVerificationError("The webhook's timestamp is too old.")
    if timestamp - current > tolerance:
        raise WebhookVerificationError("The webhook's timestamp is too new.")
    expected = sign(payload, webhook_id, timestamp, secret).encode()
    # Every v1 entry is compared, in constant time: one of them is signed with the current secret.
    matched = False
    for entry in signatures.split(" "):
        version, _, _signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(entry.encode(), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("No signature of the webhook matches the secret.")
    try:
        return cast(WebhookEvent, json.loads(payload))
    except ValueError as error:
        raise WebhookVerificationError("The webhook's body is not JSON.") from error


class Webhooks:
    """``client.webhooks.verify(...)``: the same as ``vaultline.webhooks.verify``."""

    verify = staticmethod(verify)
    sign = staticmethod(sign)
