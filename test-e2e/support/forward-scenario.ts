import { STAND_IN_CREDENTIALS, type DestinationStandIns } from './destination-stand-ins';
import type { CardInput, HttpAnswer, MerchantApi } from './merchant-api';

/**
 * The merchant's side of forwarding: a token's card data is filled into a request shaped for
 * Adyen, Checkout.com or Stripe and sent through POST /forward. Shared by the forwarding test and
 * the leak scan, which replays the same calls. The security codes are unusual on purpose, so that
 * a leak scan can look for them without matching by chance.
 */
export const FORWARD_CARDS = {
  visa: { number: '4000056655665556', exp_month: 3, exp_year: 2031, cvc: '847', name: 'Grace Hopper' },
  amex: { number: '371449635398431', exp_month: 11, exp_year: 2032, cvc: '9731', name: 'Katherine Johnson' },
} as const satisfies Record<string, CardInput & { cvc: string }>;

export const ADYEN_BODY = {
  amount: { currency: 'EUR', value: 1999 },
  reference: 'order-1001',
  merchantAccount: 'VaultlineTestECOM',
  paymentMethod: {
    type: 'scheme',
    number: '{{ account_number }}',
    expiryMonth: '{{ expiration_month }}',
    expiryYear: '{{ expiration_year }}',
    cvc: '{{ security_code }}',
  },
  shopperInteraction: 'Ecommerce',
  recurringProcessingModel: 'CardOnFile',
  storePaymentMethod: true,
};

/** Checkout.com wants integer expiry fields: the placeholders stand bare, outside any string. */
export const CHECKOUT_BODY =
  '{"source":{"type":"card","number":"{{ account_number }}","expiry_month":{{ expiration_month }},"expiry_year":{{ expiration_year }},"cvv":"{{ security_code }}"},' +
  '"amount":2500,"currency":"GBP","reference":"order-1002"}';

/** Stripe's form, encoded the way a merchant's HTTP library would encode it. */
export const STRIPE_BODY = new URLSearchParams([
  ['type', 'card'],
  ['card[number]', '{{ account_number }}'],
  ['card[exp_month]', '{{ expiration_month }}'],
  ['card[exp_year]', '{{ expiration_year }}'],
  ['card[cvc]', '{{ security_code }}'],
]).toString();

export const IDEMPOTENCY_KEY = 'idem-e2e-0001';

let keys = 0;
/** A key of its own per call: the gateway replays a repeated key instead of forwarding again. */
export function freshIdempotencyKey(): string {
  return `idem-e2e-${process.pid}-${++keys}`;
}

/** Adyen: the credential travels in the provider-word pair X-API-KEY-ADYEN-NAME / -VALUE. */
export function forwardToAdyen(merchant: MerchantApi, tokenId: string, destinationUrl: string, idempotencyKey = freshIdempotencyKey()): Promise<HttpAnswer> {
  return merchant.call('POST', '/forward', {
    json: ADYEN_BODY,
    headers: {
      'X-SERVICE-TOKEN': tokenId,
      'X-DESTINATION-URL': destinationUrl,
      'X-API-KEY-ADYEN-NAME': 'X-API-Key',
      'X-API-KEY-ADYEN-VALUE': STAND_IN_CREDENTIALS.adyenApiKey,
      'Idempotency-Key': idempotencyKey,
    },
  });
}

/** Checkout.com: the merchant's own Authorization header is passed on. */
export function forwardToCheckout(merchant: MerchantApi, tokenId: string, destinationUrl: string): Promise<HttpAnswer> {
  return merchant.call('POST', '/forward', {
    body: CHECKOUT_BODY,
    headers: {
      'Content-Type': 'application/json',
      'X-SERVICE-TOKEN': tokenId,
      'X-DESTINATION-URL': destinationUrl,
      Authorization: `Bearer ${STAND_IN_CREDENTIALS.checkoutSecretKey}`,
    },
  });
}

/** Stripe: form-encoded, the credential named Authorization through X-API-KEY-NAME / -VALUE. */
export function forwardToStripe(merchant: MerchantApi, tokenId: string, destinationUrl: string): Promise<HttpAnswer> {
  return merchant.call('POST', '/forward', {
    body: STRIPE_BODY,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-SERVICE-TOKEN': tokenId,
      'X-DESTINATION-URL': destinationUrl,
      'X-API-KEY-NAME': 'Authorization',
      'X-API-KEY-VALUE': `Bearer ${STAND_IN_CREDENTIALS.stripeSecretKey}`,
    },
  });
}

export interface ForwardScenarioAnswers {
  adyen: HttpAnswer;
  checkout: HttpAnswer;
  stripe: HttpAnswer;
  amexAdyen: HttpAnswer;
  refused: HttpAnswer;
  otherMerchant: HttpAnswer;
  deleted: HttpAnswer;
}

/**
 * Every forwarding call of the scenario, in order: the three destinations with a Visa token, an
 * AMEX token to Adyen, a destination nobody allowed, another merchant's attempt with the token,
 * and a forward of the AMEX token after it was deleted.
 */
export async function runForwardScenario(merchant: MerchantApi, otherMerchant: MerchantApi, standIns: DestinationStandIns): Promise<ForwardScenarioAnswers> {
  const visa = await merchant.createToken(FORWARD_CARDS.visa);
  const amex = await merchant.createToken(FORWARD_CARDS.amex);
  const adyen = await forwardToAdyen(merchant, visa.id, standIns.adyen.url);
  const checkout = await forwardToCheckout(merchant, visa.id, standIns.checkout.url);
  const stripe = await forwardToStripe(merchant, visa.id, standIns.stripe.url);
  const amexAdyen = await forwardToAdyen(merchant, amex.id, standIns.adyen.url);
  const refused = await forwardToAdyen(merchant, visa.id, standIns.refused.url);
  const otherMerchantAnswer = await forwardToAdyen(otherMerchant, visa.id, standIns.adyen.url);
  const deletion = await merchant.call('DELETE', `/tokens/${amex.id}`);
  if (deletion.status !== 200) throw new Error(`DELETE /tokens answered ${deletion.status}: ${deletion.text}`);
  const deleted = await forwardToAdyen(merchant, amex.id, standIns.adyen.url);
  return { adyen, checkout, stripe, amexAdyen, refused, otherMerchant: otherMerchantAnswer, deleted };
}
