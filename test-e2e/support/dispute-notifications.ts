import { adyenNotification } from '../../services/payment-orchestrator/src/processors/adyen/dev/adyen.stand-in';
import { checkoutWebhook, type CheckoutWebhook } from '../../services/payment-orchestrator/src/processors/checkout/dev/checkout.stand-in';

/**
 * Chargeback notifications as the processors send them, for a test to deliver: Adyen's dispute items
 * (the dispute's own pspReference, the payment's as originalReference, disputeStatus beside the signed
 * fields) and Checkout.com's dispute_* webhooks (the dispute's dsp_ id, the payment's reference).
 */
export function adyenDisputeNotification(
  hmacKeyHex: string,
  dispute: {
    eventCode: string;
    disputeStatus?: string;
    pspReference: string;
    paymentPspReference: string;
    merchantReference: string;
    amount: { value: number; currency: string };
    reason?: string;
  },
) {
  const notification = adyenNotification(
    {
      amount: dispute.amount,
      eventCode: dispute.eventCode,
      eventDate: new Date().toISOString(),
      merchantAccountCode: 'ShopECOM',
      merchantReference: dispute.merchantReference,
      originalReference: dispute.paymentPspReference,
      pspReference: dispute.pspReference,
      reason: dispute.reason ?? 'Fraud',
      success: 'true',
    },
    hmacKeyHex,
  );
  if (dispute.disputeStatus)
    Object.assign(notification.notificationItems[0]!.NotificationRequestItem.additionalData, {
      disputeStatus: dispute.disputeStatus,
      chargebackReasonCode: '10.4',
    });
  return notification;
}

export function checkoutDisputeWebhook(
  webhookSecret: string,
  type: string,
  dispute: { id: string; paymentId: string; paymentReference: string; amount: number; currency: string; category?: string },
): CheckoutWebhook {
  return checkoutWebhook(
    type,
    {
      id: dispute.id,
      category: dispute.category ?? 'fraudulent',
      amount: dispute.amount,
      currency: dispute.currency,
      reason_code: '10.4',
      payment_id: dispute.paymentId,
      payment_reference: dispute.paymentReference,
      evidence_required_by: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    },
    webhookSecret,
  );
}
