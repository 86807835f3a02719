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

const unescape = (value: string) => value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/**
 * What a browser does on a stand-in's issuer page, without a browser (plugin contract tests): follows the
 * redirect action (GET, or POST of its data as a form), presses "Complete" or "Fail", and returns the
 * query parameters of the address the stand-in sends it back to.
 */
export async function answerIssuerChallenge(
  action: { url: string; method: 'GET' | 'POST'; data: Record<string, string> },
  outcome: ChallengeOutcome,
): Promise<Record<string, string>> {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const page =
    action.method === 'POST' ? await fetch(action.url, { method: 'POST', headers: form, body: new URLSearchParams(action.data) }) : await fetch(action.url);
  const html = await page.text();
  const chosen = (html.match(/<form[\s\S]*?<\/form>/g) ?? []).find((candidate) => candidate.includes(`name="outcome" value="${outcome}"`));
  if (page.status !== 200 || !chosen) throw new Error(`the issuer page answered ${page.status} without a ${outcome} button`);
  const answerUrl = unescape(/action="([^"]+)"/.exec(chosen)![1]!);
  const fields = [...chosen.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]): [string, string] => [
    unescape(name!),
    unescape(value!),
  ]);
  const answer = await fetch(answerUrl, { method: 'POST', headers: form, body: new URLSearchParams(fields), redirect: 'manual' });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`the issuer's answer was ${answer.status}, not a redirect back`);
  return Object.fromEntries(new URL(location).searchParams);
}
