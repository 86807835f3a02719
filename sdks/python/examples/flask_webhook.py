"""A Flask webhook receiver that marks an order paid when Vaultline says its payment was captured."""

import os

from flask import Flask, abort, request

import vaultline

app = Flask(__name__)
SECRET = os.environ["VAULTLINE_WEBHOOK_SECRET"]  # the endpoint's whsec_… secret
orders = {"order-1001": "pending"}  # your order store: reference → status
handled: set[str] = set()  # webhook-ids already handled: a delivery may come twice


@app.post("/webhooks/vaultline")
def vaultline_webhook() -> tuple[str, int]:
    try:
        # The raw body, exactly as received: a body parsed and serialized again does not verify.
        event = vaultline.webhooks.verify(request.get_data(), request.headers, SECRET)
    except vaultline.WebhookVerificationError:
        abort(400)
    delivery = request.headers["webhook-id"]
    if delivery not in handled:
        handled.add(delivery)
        if event["type"] == "payment.captured":
            reference = event["data"].get("reference")
            if reference in orders:
                orders[reference] = "paid"
    return "", 204
