"""The README's Flask receiver (examples/flask_webhook.py), run: a signed payment.captured marks the order paid."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from types import ModuleType

import pytest

import vaultline

ROOT = Path(__file__).resolve().parents[1]
SECRET = "whsec_" + __import__("base64").b64encode(b"the example endpoint secret, 32!").decode()


@pytest.fixture()
def example(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.setenv("VAULTLINE_WEBHOOK_SECRET", SECRET)
    spec = importlib.util.spec_from_file_location("flask_webhook", ROOT / "examples" / "flask_webhook.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def delivery(event_type: str, reference: str, secret: str = SECRET, webhook_id: str = "msg_1") -> tuple[bytes, dict[str, str]]:
    body = json.dumps({"type": event_type, "timestamp": "2026-11-28T10:00:00.000Z", "livemode": False, "data": {"payment_id": "p1", "status": "captured", "reference": reference}}).encode()
    now = int(time.time())
    return body, {"webhook-id": webhook_id, "webhook-timestamp": str(now), "webhook-signature": vaultline.webhooks.sign(body, webhook_id, now, secret), "Content-Type": "application/json"}


def test_when_a_signed_payment_captured_arrives_then_the_order_is_paid(example: ModuleType) -> None:
    body, headers = delivery("payment.captured", "order-1001")
    answer = example.app.test_client().post("/webhooks/vaultline", data=body, headers=headers)
    assert answer.status_code == 204
    assert example.orders == {"order-1001": "paid"}


def test_when_the_signature_is_another_secrets_then_it_answers_400_and_the_order_stays_pending(example: ModuleType) -> None:
    other = "whsec_" + __import__("base64").b64encode(b"somebody else's secret, 32 bytes").decode()
    body, headers = delivery("payment.captured", "order-1001", secret=other)
    answer = example.app.test_client().post("/webhooks/vaultline", data=body, headers=headers)
    assert answer.status_code == 400
    assert example.orders == {"order-1001": "pending"}


def test_when_another_event_arrives_then_the_order_is_unchanged(example: ModuleType) -> None:
    body, headers = delivery("payment.failed", "order-1001")
    assert example.app.test_client().post("/webhooks/vaultline", data=body, headers=headers).status_code == 204
    assert example.orders == {"order-1001": "pending"}


def test_the_readme_shows_the_example_as_it_is_run() -> None:
    assert (ROOT / "examples" / "flask_webhook.py").read_text("utf-8") in (ROOT / "README.md").read_text("utf-8")
