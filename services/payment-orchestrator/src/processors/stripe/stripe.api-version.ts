/**
 * The one Stripe API version every call of this plugin is made in (the `Stripe-Version` header on every
 * request), so an account's default version can never change what is sent or how answers read. From
 * 2022-11-15 on a PaymentIntent names its charge in `latest_charge` (its network transaction id is read
 * there, for merchant-initiated payments) and a Charge no longer embeds its `refunds` (charge.refunded says
 * nothing of them: refunds settle by their own events and GET /v1/refunds/{id}). 2024-06-20 is the last
 * version before the dated-release scheme (2024-09-30.acacia) and the one stripe-node v16 is generated
 * for: the mapper's fields are pinned to its types (amount_to_capture, final_capture,
 * payment_method_options[card][request_multicapture], Refund.status). Webhook endpoints are created with
 * the same version (README), so the events' objects have the same shapes.
 */
export const STRIPE_API_VERSION = '2024-06-20';
