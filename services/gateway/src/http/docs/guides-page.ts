import { eventCatalog, merchantEventTypes } from '@vaultline/contracts';
import { docsPage, escapeHtml } from './docs-layout';

interface TestCard {
  number: string;
  outcome: string;
}

/** The built-in simulator decides by the first six and last four digits (services/payment-orchestrator/README.md). */
const SIMULATOR_CARDS: TestCard[] = [
  { number: '4242 4242 4242 4242', outcome: 'Approved; 3RI succeeds; captures succeed (any other valid card number too).' },
  { number: '4000 0000 0000 0002', outcome: 'Authorization declined: failure_reason card_declined.' },
  { number: '4000 0000 0000 9995', outcome: 'Authorization declined: failure_reason insufficient_funds.' },
  { number: '4000 0000 0000 3220', outcome: '3RI authentication fails (authorization would succeed): with REQUIRE_3RI the payment fails with authentication_failed.' },
  { number: '4000 0000 0000 0259', outcome: 'Authorization succeeds, every capture fails (capture_failed): an automatic capture fails the payment; a manual one leaves it authorized with payment.capture_failed.' },
  { number: '4000 0000 0000 0267', outcome: 'Authorization succeeds, the first capture fails (payment.capture_failed, the payment stays authorized) and a capture asked again succeeds (manual-capture flow).' },
  { number: '4000 0000 0000 0119', outcome: 'Processor error (retryable): a flow step\'s fallback processors are tried; processor_error when none is left.' },
  { number: '4000 0000 0000 5126', outcome: 'Captured normally; every refund of it fails: failure_reason refund_failed (the amount is refundable again).' },
  { number: '4000 0000 0000 2685', outcome: 'Captured, then disputed at once: a dispute needs_response, reason product_not_received (dispute.created).' },
];

/** The test cards of the processors' test environments, which the stand-ins of our end-to-end suite answer alike (test-e2e/support). */
const ADYEN_CARDS: TestCard[] = [
  { number: '4111 1111 1111 1111', outcome: 'Authorised.' },
  { number: '4000 0000 0000 0002', outcome: 'Refused: failure_reason card_declined.' },
  { number: '4000 0000 0000 9995', outcome: 'Refused, not enough balance: failure_reason insufficient_funds.' },
];
const CHECKOUT_CARDS: TestCard[] = [
  { number: '4242 4242 4242 4242', outcome: 'Approved.' },
  { number: '4000 0000 0000 0002', outcome: 'Declined: failure_reason card_declined.' },
  { number: '4000 0000 0000 9995', outcome: 'Declined, insufficient funds: failure_reason insufficient_funds.' },
];
const SCHEME_CARDS: TestCard[] = [
  { number: '4242 4242 4242 4242', outcome: 'VISA' },
  { number: '5555 5555 5555 4444', outcome: 'MASTERCARD' },
  { number: '2223 0031 2200 3222', outcome: 'MASTERCARD (2-series)' },
  { number: '3782 822463 10005', outcome: 'AMEX (4-digit security code)' },
  { number: '6011 1111 1111 1117', outcome: 'DISCOVER' },
  { number: '3566 0020 2036 0505', outcome: 'JCB' },
];

const cardTable = (cards: TestCard[], outcomeHeader = 'outcome'): string =>
  `<table><thead><tr><th>card number</th><th>${outcomeHeader}</th></tr></thead><tbody>${cards
    .map((card) => `<tr><td><code>${card.number}</code></td><td>${escapeHtml(card.outcome)}</td></tr>`)
    .join('')}</tbody></table>`;

/** A code sample. Its import lines quote module names with \u0027 escapes: the dependency check reads import statements in any source text. */
const code = (text: string): string => `<pre><code>${escapeHtml(text.trim())}</code></pre>`;

const SECTIONS: Array<[string, string]> = [
  ['quick-start', 'Quick start'],
  ['test-and-live', 'Test and live'],
  ['test-cards', 'Test cards'],
  ['payment-lifecycle', 'The payment lifecycle'],
  ['webhooks', 'Webhooks'],
  ['errors', 'Errors'],
  ['idempotency', 'Idempotency'],
  ['test-clock', 'The test clock'],
  ['pagination', 'Lists and pages'],
];

/** The guides: how to integrate, on one page beside the reference. `baseUrl` is the gateway's PUBLIC_BASE_URL. */
export function guidesPage(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const events = merchantEventTypes.map((type) => `<tr><td><code>${type}</code></td><td>${escapeHtml(eventCatalog[type].description)}</td></tr>`).join('');
  const body = `<h1>Guides</h1>
<p>How to integrate with Vaultline: take a first payment, test every outcome, follow a payment through its states, receive webhooks
and handle errors. Every route, field and example is in the <a href="/docs">API reference</a>
(<a href="/openapi.json">openapi.json</a>); operators have the <a href="/docs/admin">admin API</a>.</p>

<h2 id="quick-start">Quick start</h2>
<p>Every request carries your API key in <code>X-API-Key</code>; bodies are JSON; amounts are integers in minor units (1250 = EUR 12.50).
Running the service yourself? <code>BOOTSTRAP_API_KEY=sk_test_… pnpm start</code> starts everything in one process with a merchant that owns
that key (see the repository's README); an operator issues further keys through the <a href="/docs/admin">admin API</a>.</p>
<h3>1. Create a payment</h3>
${code(`
curl -s -X POST ${base}/payments/one-off \\
  -H "X-API-Key: sk_test_…" -H "Content-Type: application/json" -H "Idempotency-Key: order-1001-payment" \\
  -d '{"amount": 1250, "currency_code": "EUR", "reference": "order-1001", "source": {"type": "vaultline"},
       "return_url": "https://shop.example/orders/1001"}'
`)}
<p>The answer is the payment in status <code>processing</code> with <code>action_requirement.session_id</code>.</p>
<h3>2. Let the consumer pay</h3>
<p>Send the consumer to <code>${escapeHtml(base)}/checkout/{session_id}</code>, or embed the page in yours with checkout.js:</p>
${code(`
<div id="pay"></div>
<script src="${base}/sdk/v1/checkout.js"></script>
<script>
  Checkout.mount('#pay', { sessionId: '…', onComplete: (result) => console.log(result.status) });
</script>
`)}
<p>The card is entered on Vaultline's page: card data never touches your servers. Use a <a href="#test-cards">test card</a>. Once the outcome is
known the page returns the consumer to <code>return_url</code> with <code>session_id</code>, <code>payment_id</code> and <code>payment_status</code> added.</p>
<h3>3. Learn the outcome</h3>
<p>Register a <a href="#webhooks">webhook endpoint</a> and wait for <code>payment.captured</code> or <code>payment.failed</code>, or read the payment:</p>
${code(`curl -s ${base}/payments/{payment_id} -H "X-API-Key: sk_test_…"`)}

<h2 id="test-and-live">Test and live</h2>
<p>Keys come in two modes, told apart by their prefix: <code>sk_test_…</code> and <code>sk_live_…</code>. An operator issues them
(<code>POST /admin/merchants/{merchant_id}/api-keys</code> with <code>mode</code>).</p>
<table><thead><tr><th></th><th>test keys</th><th>live keys</th></tr></thead><tbody>
<tr><td>the simulator (built-in flows <code>simulator_auto_capture</code>, <code>simulator_manual_capture</code>)</td><td>decides by the <a href="#test-cards">test card</a></td><td>refused: 422 <code>simulator_not_allowed_in_live_mode</code>; route live payments to flows of real processors</td></tr>
<tr><td>the test clock (<code>X-Test-Now</code>)</td><td>accepted</td><td>refused on every route: 422 <code>test_clock_not_allowed</code></td></tr>
<tr><td>processor accounts</td><td>use the processor's test environment</td><td>use the processor's live environment</td></tr>
</tbody></table>
<p>Use test keys in development and CI; nothing a test key does moves money.</p>

<h2 id="test-cards">Test cards</h2>
<p>Any expiry date in the future and any security code of the scheme's length (3 digits, 4 for American Express) work with every card below.</p>
<h3>The simulator (test mode)</h3>
<p>The built-in simulator decides by the card's first six and last four digits:</p>
${cardTable(SIMULATOR_CARDS)}
<h3>Adyen</h3>
<p>Flows on an Adyen processor account in its test environment (and the Adyen stand-in the end-to-end suite runs):</p>
${cardTable(ADYEN_CARDS)}
<h3>Checkout.com</h3>
<p>Flows on a Checkout.com processor account in its sandbox (and the Checkout.com stand-in of the end-to-end suite):</p>
${cardTable(CHECKOUT_CARDS)}
<h3>Tokens and forwarding</h3>
<p>The vault accepts any number that passes the Luhn check with a length its scheme allows; the scheme is detected from the number:</p>
${cardTable(SCHEME_CARDS, 'scheme')}
<p>A security code is kept 15 minutes after the card was stored; a forward that needs it later answers 422 <code>security_code_expired</code>.</p>

<h2 id="payment-lifecycle">The payment lifecycle</h2>
<p>A payment of the newer interface (<code>/payments/one-off</code>, <code>/payments/recurring</code>, <code>/payments/unscheduled</code> and their
<code>/subsequent</code> routes) moves through these states; each move is a webhook event of the same name (<code>canceling</code> has none).</p>
<table><thead><tr><th>status</th><th>means</th><th>next</th></tr></thead><tbody>
<tr><td><code>processing</code></td><td>Accepted; a consumer-present payment waits for the card on the hosted page, then its flow runs.</td><td><code>authorized</code> (manual-capture flow), <code>captured</code> (automatic-capture flow), <code>failed</code>, <code>canceled</code> (<code>POST /payments/{id}/cancel</code> before a card is entered)</td></tr>
<tr><td><code>authorized</code></td><td>The amount is reserved (<code>amount.authorized</code>, <code>amount.capturable</code>); capture it with <code>POST /payments/{id}/capture</code> (all of it, or part of it; <code>final_capture: false</code> when more captures follow) or release it with <code>POST /payments/{id}/cancel</code>. Left uncaptured for <code>AUTHORIZATION_VALIDITY_SECONDS</code> (7 days) it is voided.</td><td><code>capturing</code>, <code>canceling</code>, <code>canceled</code></td></tr>
<tr><td><code>canceling</code></td><td>The processor took the void and has not confirmed it yet (Adyen, Checkout.com confirm by notification).</td><td><code>canceled</code>, <code>authorized</code> (void refused)</td></tr>
<tr><td><code>canceled</code></td><td>Released: <code>cancellation_reason</code> is <code>requested_by_merchant</code> or <code>authorization_expired</code>; nothing was charged.</td><td>—</td></tr>
<tr><td><code>capturing</code></td><td>A capture was sent to the processor. If it fails the payment goes back (<code>payment.capture_failed</code>): capture again, or cancel.</td><td><code>captured</code>, <code>partially_captured</code>, <code>authorized</code></td></tr>
<tr><td><code>partially_captured</code></td><td>A capture with <code>final_capture: false</code> settled (<code>amount.captured</code> so far, <code>amount.capturable</code> what is left): capture the next part, the last one with <code>final_capture: true</code>, or cancel to release the rest. Refunds take at most what was captured.</td><td><code>capturing</code>, <code>captured</code> (the rest released)</td></tr>
<tr><td><code>captured</code></td><td>Done: <code>amount.captured</code> is set. Refund it (in parts too) with <code>POST /payments/{id}/refunds</code>: <code>amount.refunded</code> sums the succeeded refunds and the payment stays captured. Chargebacks show as disputes (<code>GET /payments/{id}/disputes</code>).</td><td>—</td></tr>
<tr><td><code>failed</code></td><td>Declined or could not complete: <code>failure_reason</code> says why (<code>card_declined</code>, <code>insufficient_funds</code>, <code>authentication_failed</code>, <code>capture_failed</code> of an automatic capture, <code>processor_error</code>, <code>risk_declined</code>, <code>session_expired</code>).</td><td><code>captured</code>, only when a capture reported failed succeeds after all (Adyen's own recapture): <code>payment.captured</code> then follows</td></tr>
</tbody></table>
<p>Which flow runs (its processors, automatic or manual capture) is chosen by your flow matrix; <code>POST /flow-matrix/explain</code> shows the choice
for a payment-shaped body. Recurring and unscheduled payments store credentials (<code>credential_id</code>); charge them later, without the consumer,
with <code>POST /payments/recurring/{initial_payment_id}/subsequent</code> or <code>…/unscheduled/{initial_payment_id}/subsequent</code>.</p>

<h2 id="webhooks">Webhooks</h2>
<p>Register an https endpoint; the answer shows its signing secret (<code>whsec_…</code>) once:</p>
${code(`
curl -s -X POST ${base}/webhook-endpoints -H "X-API-Key: sk_test_…" -H "Content-Type: application/json" \\
  -d '{"url": "https://shop.example/webhooks/vaultline", "events": ["payment.captured", "payment.failed"]}'
`)}
<p>Deliveries follow <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> 1.0: a POST with the body
<code>{"type", "timestamp", "data"}</code> and the headers <code>webhook-id</code> (stable across retries: deduplicate on it),
<code>webhook-timestamp</code> (Unix seconds) and <code>webhook-signature</code> (<code>v1,&lt;base64 HMAC-SHA256&gt;</code> entries separated by spaces; two
during a secret rotation). The signature covers <code>{webhook-id}.{webhook-timestamp}.{body}</code> — the exact bytes received.</p>
<h3>Verify a delivery</h3>
${code(`
import { Webhook } from \u0027standardwebhooks\u0027;
const webhook = new Webhook(process.env.VAULTLINE_WEBHOOK_SECRET); // whsec_…

app.post('/webhooks/vaultline', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = webhook.verify(req.body, req.headers); // throws on a bad signature or a timestamp older than 5 minutes
  } catch {
    return res.status(400).end();
  }
  // handle event.type / event.data once per webhook-id, then answer quickly
  res.status(204).end();
});
`)}
<p>By hand: base64-decode the part after <code>whsec_</code>, compute HMAC-SHA256 over <code>id.timestamp.body</code>, base64 it, and compare it in constant
time with each <code>v1,</code> entry; refuse timestamps more than 5 minutes away.</p>
<h3>Retries</h3>
<p>A 2xx answer is success. Anything else, a timeout (15 s) or a connection error is retried: immediately, after 5 s, 5 min, 30 min, 2 h, 5 h,
10 h and 10 h; <code>Retry-After</code> on 429 or 503 postpones the next attempt. Answering 410 disables the endpoint. Redirects are never followed.
Every delivery and its attempts are listed under <code>/webhook-endpoints/{id}/deliveries</code> and can be replayed.</p>
<h3>Event types</h3>
<table><thead><tr><th>type</th><th>sent when</th></tr></thead><tbody>${events}</tbody></table>

<h2 id="errors">Errors</h2>
<p>Errors are <code>application/problem+json</code> with a stable <code>code</code>, a <code>detail</code> for humans, <code>field</code> for input errors and a
<code>request_id</code>. Each code, what it means and what to do: <a href="/docs/errors">the error reference</a>; a problem's <code>type</code> links
straight to its entry there. Branch on <code>code</code> (and the HTTP status), never on <code>detail</code>.</p>
<table><thead><tr><th>status</th><th>what to do</th></tr></thead><tbody>
<tr><td>400, 413, 415, 422</td><td>Fix the request (<code>field</code> names what to fix); sending it again unchanged fails again.</td></tr>
<tr><td>401, 403</td><td>Fix the credentials or use a key with the needed access.</td></tr>
<tr><td>404, 409, 410</td><td>Read the resource's current state before acting again.</td></tr>
<tr><td>429</td><td>Wait <code>Retry-After</code> seconds.</td></tr>
<tr><td>500, 502, 503, 504</td><td>Retry with the same <code>Idempotency-Key</code> after a backoff.</td></tr>
</tbody></table>

<h2 id="idempotency">Idempotency</h2>
<p>Every POST takes an <code>Idempotency-Key</code> header (1–255 visible ASCII characters; a UUID is a good choice). A retry with the same key and
the same request gets the first answer again — status and body, errors included — with <code>Idempotent-Replayed: true</code>, and nothing runs twice.
Keys are kept 24 hours per merchant and route.</p>
<ul>
<li>The same key with a different request: 422 <code>idempotency_key_reused</code>.</li>
<li>A retry while the first request still runs: 409 <code>idempotency_key_in_use</code> — retry later with the same key.</li>
<li>A 503 answer releases the key: nothing was done, so retrying with it is safe.</li>
</ul>
<p>Send a key with every payment, capture, token and forward request, and retry timeouts and 5xx answers with the same key.</p>

<h2 id="test-clock">The test clock</h2>
<p>With a test key, a subsequent payment may carry <code>X-Test-Now</code>: an ISO 8601 time with a zone. That time is the payment's effective time: its
<code>created_at</code> and the time every frequency and expiry rule looks at, so next month's charge of a subscription can be tested today:</p>
${code(`
curl -s -X POST ${base}/payments/recurring/{initial_payment_id}/subsequent \\
  -H "X-API-Key: sk_test_…" -H "Content-Type: application/json" -H "X-Test-Now: 2027-02-15T10:00:00Z" \\
  -d '{"amount": 1999, "currency_code": "EUR", "reference": "subscription-42-february"}'
`)}
<p>A malformed value answers 422 <code>invalid_test_clock</code>; a live key with the header is refused on every route (422 <code>test_clock_not_allowed</code>).
Creation and capture requests of initial payments ignore it.</p>

<h2 id="pagination">Lists and pages</h2>
<p>Lists answer <code>{"object": "list", "data": [...], "has_more", "next_cursor"}</code>, newest first. Pass <code>limit</code> (1–100, default 10)
and, for the next page, <code>starting_after=&lt;next_cursor&gt;</code>; <code>order=asc</code> reverses the order.</p>`;
  return docsPage({ title: 'Guides', section: 'guides', toc: SECTIONS, body });
}
