import type { PspAnswer } from './psp-stand-in-server';

export type ChallengeOutcome = 'completed' | 'failed';

const escape = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The minimal issuer (ACS) page a processor's stand-in serves where the real processor sends the consumer
 * for a 3-D Secure challenge: the amount, and two buttons, "Complete" and "Fail", each posting the
 * `fields` and the chosen `outcome` to `answerUrl`. The stand-in then sends the browser back to the shop.
 */
export function issuerChallengePage(options: { answerUrl: string; fields: Record<string, string>; amount: string; processor: string }): PspAnswer {
  const hidden = Object.entries(options.fields)
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('');
  const button = (outcome: ChallengeOutcome, label: string) =>
    `<form method="post" action="${escape(options.answerUrl)}">${hidden}<input type="hidden" name="outcome" value="${outcome}"><button type="submit">${label}</button></form>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Issuer authentication</title></head>
<body><main><h1>Verify your payment</h1><p>${escape(options.processor)} test issuer: a payment of ${escape(options.amount)} asks you to confirm it is you.</p>
${button('completed', 'Complete')}${button('failed', 'Fail')}</main></body></html>`;
  return { status: 200, body: undefined, html };
}

/** A 302 to `url` with `params` added to its query (the shop's own parameters kept). */
export function redirectBack(url: string, params: Record<string, string>): PspAnswer {
  const target = new URL(url);
  for (const [name, value] of Object.entries(params)) target.searchParams.set(name, value);
  return { status: 302, body: undefined, html: '', headers: { location: target.toString() } };
}

/** A form post's fields (application/x-www-form-urlencoded). */
export function formFields(rawBody: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(rawBody));
}

/** "12.50 EUR" from minor units. */
export function displayAmount(value: unknown, currency: unknown): string {
  return `${(Number(value) / 100).toFixed(2)} ${String(currency)}`;
}
