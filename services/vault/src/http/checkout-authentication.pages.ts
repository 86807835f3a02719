import type { CheckoutSessionRecord } from '../domain/checkout/checkout-session';
import { majorUnits, SIMULATOR_CHALLENGE } from '@vaultline/contracts';

/** Text and attribute values of the pages below: every value from a processor or a session is escaped. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The start of both pages: our stylesheet, no referrer, the title (a constant of this file). */
function pageStart(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${title}</title>
  <link rel="icon" href="/checkout/assets/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/checkout/assets/checkout.css">
</head>`;
}

/**
 * The page that posts the issuer's form (an action with method POST): our own script submits it, and the
 * policy lets forms go to the issuer's origin only. With scripts off the consumer presses "Continue".
 */
export function issuerFormPolicy(url: string, allowedOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `form-action ${new URL(url).origin}`,
    "base-uri 'none'",
    frameAncestors(allowedOrigins),
  ].join('; ');
}

/** Who may frame these pages: the session's allowed origins, as for the hosted page (the SDK's iframe); none else. */
function frameAncestors(allowedOrigins: readonly string[]): string {
  return `frame-ancestors ${allowedOrigins.length > 0 ? allowedOrigins.join(' ') : "'none'"}`;
}

export function issuerFormPage(url: string, data: Record<string, string>): string {
  const fields = Object.entries(data)
    .map(([name, value]) => `    <input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return `${pageStart('Verifying with your bank')}
<body>
  <main class="checkout" aria-labelledby="title">
    <h1 id="title" class="amount-title">Verifying with your bank…</h1>
    <form id="issuer-form" method="post" action="${escapeHtml(url)}">
${fields}
      <p class="notice">Your bank asks you to confirm this payment. If nothing happens, continue here.</p>
      <button class="pay" type="submit">Continue</button>
    </form>
  </main>
  <script src="/checkout/assets/checkout-redirect.js"></script>
</body>
</html>
`;
}

/** The simulator's issuer page posts nothing anywhere but this origin's return route. */
export function testChallengePolicy(allowedOrigins: readonly string[]): string {
  return ["default-src 'none'", "style-src 'self'", "img-src 'self'", "form-action 'self'", "base-uri 'none'", frameAncestors(allowedOrigins)].join('; ');
}

/**
 * The simulator's issuer page (test mode only): what a bank's 3-D Secure challenge would ask, with two
 * buttons that send the consumer back to the hosted page with the outcome they chose.
 */
export function testChallengePage(session: CheckoutSessionRecord): string {
  const back = `/checkout/${encodeURIComponent(session.id)}/return`;
  const amount = `${majorUnits(session.amount, session.currency)} ${session.currency}`;
  const card = session.masked_account_number ? `•••• ${session.masked_account_number.slice(-4)}` : 'your card';
  const button = (outcome: (typeof SIMULATOR_CHALLENGE.outcomes)[number], label: string, style: string) => `    <form method="get" action="${back}">
      <input type="hidden" name="${SIMULATOR_CHALLENGE.parameter}" value="${outcome}">
      <button class="${style}" type="submit">${label}</button>
    </form>`;
  return `${pageStart('Test bank: confirm the payment')}
<body>
  <main class="checkout test-challenge" aria-labelledby="title">
    <p class="test-banner">Test mode: the simulator's bank. No real bank is asked.</p>
    <h1 id="title" class="amount-title">Confirm the payment of ${escapeHtml(amount)}</h1>
    <p class="notice">Your bank asks you to confirm this payment with ${escapeHtml(card)}. In test mode, choose the outcome.</p>
${button('completed', 'Complete', 'pay')}
${button('failed', 'Fail', 'button secondary')}
  </main>
</body>
</html>
`;
}
