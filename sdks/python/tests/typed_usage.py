"""A merchant's code using the SDK, type-checked by mypy --strict in test_types.py (never run)."""

from __future__ import annotations

import vaultline
from vaultline.types import AnyPayment, ConsumerPresentPayment


def pay(client: vaultline.Vaultline) -> str:
    payment: ConsumerPresentPayment = client.payments.create_one_off(amount=1999, currency_code="EUR", reference="order-1001", source={"type": "vaultline"})
    captured: list[AnyPayment] = list(client.payments.list(status="captured", limit=10))
    return payment["id"] + str(len(captured))


async def pay_async(client: vaultline.AsyncVaultline) -> int:
    refunds = [refund["id"] async for refund in client.refunds.list(payment_id="p1")]
    report = await client.reports.payments(from_="2026-11-01", to="2026-11-30")
    return len(refunds) + report["totals"]["count"]
