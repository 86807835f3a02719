import { eventCatalog, merchantEventTypes, PROCESSOR_MANIFESTS, type ProcessorManifest } from '@vaultline/contracts';
import { docsPage, escapeHtml } from './docs-layout';

interface TestCard {
  number: string;
  outcome: string;
}

/** Each processor's test cards, from its manifest (its folder's manifest.json), which its stand-in answers alike. */
const cardsOf = (manifest: ProcessorManifest): TestCard[] => manifest.test_cards;
/** The built-in simulator decides by the first six and last four digits (services/payment-orchestrator/README.md). */
const SIMULATOR = PROCESSOR_MANIFESTS.find((manifest) => manifest.id === 'simulator');
const REAL_PROCESSORS = PROCESSOR_MANIFESTS.filter((manifest) => manifest !== SIMULATOR && manifest.test_cards.length > 0);
const SCHEME_CARDS: TestCard[] = [
  { number: '4242 4242 4242 4242', outcome: 'VISA' },
  { number: '5555 5555 5555 4444', outcome: 'MASTERCARD' },
  { number: '2223 0031 2200 3222', outcome: 'MASTERCARD (2-series)' },
  { number: '3782 822463 10005', outcome: 'AMEX (4-digit security code)' },
  { number: '6011 1111 1111 1117', outcome: 'DISCOVER' },
  { number: '3566 0020 2036 0505', outcome: 'JCB' },
];

/** A copy button for `text` (hidden until guides.js runs: without script the page has nothing to press). */
const copyButton = (text: string, what: string): string =>
  `<button type="button" class="copy" data-copy="${escapeHtml(text)}" hidden><span class="copy-label">Copy</span><span class="visually-hidden"> ${escapeHtml(what)}</span></button>`;

const cardTable = (cards: TestCard[], outcomeHeader = 'outcome'): string =>
  `<table class="cards"><thead><tr><th>card number</th><th>${outcomeHeader}</th></tr></thead><tbody>${cards
    .map(
      (card) =>
        `<tr><td><span class="card-number"><code>${card.number}</code>${copyButton(card.number.replace(/\s/g, ''), card.number)}</span></td><td>${escapeHtml(card.outcome)}</td></tr>`,
    )
    .join('')}</tbody></table>`;

/** A code sample. Its import lines quote module names with \u0027 escapes: the dependency check reads import statements in any source text. */
const code = (text: string): string =>
  `<div class="sample">${copyButton(text.trim(), 'this code')}<pre tabindex="0"><code>${escapeHtml(text.trim())}</code></pre></div>`;

const SECTIONS: Array<[string, string]> = [
  ['quick-start', 'Quick start'],
  ['test-and-live', 'Test and live'],
  ['test-cards', 'Test cards'],
  ['payment-lifecycle', 'The payment lifecycle'],
  ['three-d-secure', '3-D Secure and 3RI'],
  ['declines-and-routing', 'Declines and routing'],
  ['webhooks', 'Webhooks'],
  ['local-webhooks', 'Webhooks on your laptop'],
  ['dashboard', 'The dashboard'],
  ['sdk', 'The Node.js SDK'],
  ['cli', 'The CLI'],
  ['example-shop', 'The example shop'],
  ['errors', 'Errors'],
  ['idempotency', 'Idempotency'],
  ['test-clock', 'The test clock'],
  ['pagination', 'Lists and pages'],
];

/** The guides: how to integrate, on one page beside the reference. `baseUrl` is the gateway's PUBLIC_BASE_URL. */
export function guidesPage(baseUrl: string, assetUrl: (name: string) => string): string {
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
<p>The answer is the payment in status <code>processing</code> with <code>action_requirement.session_id</code> and
<code>action_requirement.checkout_url</code>, the address of its hosted page.</p>
<h3>2. Let the consumer pay</h3>
<p>Send the consumer to <code>action_requirement.checkout_url</code> (<code>${escapeHtml(base)}/checkout/{session_id}</code>), or embed the page in yours with checkout.js:</p>
${code(`
<div id="pay"></div>
<script src="${base}/sdk/v1/checkout.js"></script>
<script>
  Checkout.mount('#pay', {
    sessionId: '…',
    onComplete: (result) => console.log(result.status),          // the payment's outcome
    onAttemptFailed: (attempt) => console.log(attempt.failureReason), // a card failed; the form takes another
  });
</script>
`)}
<p>The card is entered on Vaultline's page: card data never touches your servers. Use a <a href="#test-cards">test card</a>. The page shows
your name (set a display name, colour and logo on the dashboard's Checkout page, or <code>PATCH /settings/checkout</code>) and, for a test
payment, a TEST MODE badge. A declined card is not a dead end: the page says why and takes another card in the same session. Once the
payment succeeds the page returns the consumer to <code>return_url</code> with <code>session_id</code>, <code>payment_id</code> and
<code>payment_status</code> added; after a failure the consumer chooses: another card, or "Return to the shop" (the payment then fails at once).</p>
<h3>3. Learn the outcome</h3>
<p>Register a <a href="#webhooks">webhook endpoint</a> and wait for <code>payment.captured</code> or <code>payment.failed</code>, or read the payment:</p>
${code(`curl -s ${base}/payments/{payment_id} -H "X-API-Key: sk_test_…"`)}

<h2 id="test-and-live">Test and live</h2>
<p>Keys come in two modes, told apart by their prefix: <code>sk_test_…</code> and <code>sk_live_…</code>. An operator issues them
(<code>POST /admin/merchants/{merchant_id}/api-keys</code> with <code>mode</code>).</p>
<table><thead><tr><th><span class="visually-hidden">what</span></th><th>test keys</th><th>live keys</th></tr></thead><tbody>
<tr><td>the simulator (built-in flows <code>simulator_auto_capture</code>, <code>simulator_manual_capture</code>)</td><td>decides by the <a href="#test-cards">test card</a></td><td>refused: 422 <code>simulator_not_allowed_in_live_mode</code>; route live payments to flows of real processors</td></tr>
<tr><td>the test clock (<code>X-Test-Now</code>)</td><td>accepted</td><td>refused on every route: 422 <code>test_clock_not_allowed</code></td></tr>
<tr><td>processor accounts</td><td>use the processor's test environment</td><td>use the processor's live environment</td></tr>
</tbody></table>
<p>Use test keys in development and CI; nothing a test key does moves money.</p>

<h2 id="test-cards">Test cards</h2>
<p>Any expiry date in the future and any security code of the scheme's length (3 digits, 4 for American Express) work with every card below
(the processors' own test environments may ask for the expiry and code their documentation gives). The Copy buttons copy the number without spaces.</p>
<h3>The simulator (test mode)</h3>
<p>The built-in simulator (the built-in flows <code>simulator_auto_capture</code> and <code>simulator_manual_capture</code>, test keys only) decides by the card's
first six and last four digits:</p>
${SIMULATOR ? cardTable(cardsOf(SIMULATOR)) : ''}
${REAL_PROCESSORS.map(
  (manifest) => `<h3>${escapeHtml(manifest.display_name)}</h3>
<p>Flows on a processor account at ${escapeHtml(manifest.display_name)} (<code>"processor": "${escapeHtml(manifest.id)}"</code>) in its test environment (and its stand-in, which the end-to-end suite runs):</p>
${cardTable(cardsOf(manifest))}`,
).join('\n')}
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
<tr><td><code>captured</code></td><td>Done: <code>amount.captured</code> is set. Refund it (in parts too) with <code>POST /payments/{id}/refunds</code>: <code>amount.refunded</code> sums the succeeded refunds and the payment stays captured. Chargebacks show as disputes (<code>GET /payments/{id}/disputes</code>), answered with <code>POST /disputes/{id}/accept</code> or <code>/evidence</code>; while one is open or lost, <code>amount.disputed</code> holds it, <code>amount.net</code> is captured − refunded − disputed, and a refund answers 409 <code>payment_disputed</code>. Issuers' fraud reports are early fraud warnings (<code>GET /early-fraud-warnings</code>), not disputes.</td><td>—</td></tr>
<tr><td><code>failed</code></td><td>Declined or could not complete: <code>failure_reason</code> says why (<code>card_declined</code>, <code>insufficient_funds</code>, <code>authentication_failed</code>, <code>capture_failed</code> of an automatic capture, <code>processor_error</code>, <code>risk_declined</code>, <code>session_expired</code>).</td><td><code>captured</code>, only when a capture reported failed succeeds after all (Adyen's own recapture): <code>payment.captured</code> then follows</td></tr>
</tbody></table>
<h3>Another card after a decline</h3>
<p>On the hosted page a declined card (or a failed 3-D Secure challenge) is one <em>attempt</em>, not the end of the payment. While the
session is open the payment stays <code>processing</code> without a card: <code>last_failed_attempt</code> names the card (masked) and its
<code>failure_reason</code>, <code>attempts</code> counts the cards, and the webhook <code>payment.attempt_failed</code> carries the same. The
consumer enters another card; each card's transactions carry its <code>attempt</code>, and the payment goes on as any other
(<code>payment.captured</code>). It fails with the last card's reason when the session expires (30 minutes) or at once when the consumer
leaves with "Return to the shop". Processor errors and risk declines fail the payment at once. A session takes a few cards per window
(<code>VAULT_CHECKOUT_ATTEMPTS_PER_SESSION</code>, 5 per 10 minutes); over it the page says "Too many attempts. Try again in N s."</p>
<h3>Refunded and partially refunded</h3>
<p>A refund leaves the payment <code>captured</code>; <code>amount.refunded</code> sums the succeeded refunds and <code>amount.refund_pending</code> the
ones the processor has not settled. A payment is <strong>refunded</strong> when <code>amount.refunded</code> equals <code>amount.captured</code>,
<strong>partially refunded</strong> when it is between 0 and <code>amount.captured</code> (the dashboard shows both as badges); what may still be
refunded is <code>captured − refunded − refund_pending</code>.</p>
<p>Which flow runs (its processors, automatic or manual capture) is chosen by your flow matrix; <code>POST /flow-matrix/explain</code> shows the choice
for a payment-shaped body. Recurring and unscheduled payments store credentials (<code>credential_id</code>); charge them later, without the consumer,
with <code>POST /payments/recurring/{initial_payment_id}/subsequent</code> or <code>…/unscheduled/{initial_payment_id}/subsequent</code>.</p>

<h2 id="three-d-secure">3-D Secure and 3RI</h2>
<p><strong>3-D Secure</strong> asks the card's issuer to authenticate the cardholder (a code in the banking app, a challenge page) before it
authorizes; with the authentication the fraud liability shifts to the issuer. For consumer-present payments the flow's authorization
step decides (<code>three_ds</code>: <code>off</code>, <code>if_required</code> — the default — or <code>always</code>); when the issuer asks, the
payment stays <code>processing</code>, <code>payment.action_required</code> is sent, and the hosted page takes the consumer to the bank and back. The
payment then shows <code>authentication</code> (status, ECI, liability shift). Try it with 4000 0000 0000 3063 (challenge), 4000 0000 0000 3097
(frictionless) and 4000 0084 0000 1629 (challenge, then declined).</p>
<p><strong>3RI</strong> — <em>3-D Secure Requestor Initiated</em> — is 3-D Secure without the consumer: for a merchant-initiated payment
(a subscription's next charge, <code>/subsequent</code>) the merchant's side asks the issuer for an authentication on the strength of the
consumer's earlier one, to get the same assurance (and, where the scheme allows, the liability shift) when nobody is there to complete a
challenge. A subsequent payment chooses with <code>authentication_preference</code>: <code>NO_3RI</code> (the default: no 3RI),
<code>TRY_3RI</code> (3RI is tried; whatever its outcome the payment goes on to authorization) or <code>REQUIRE_3RI</code> (if 3RI fails the payment
fails with <code>authentication_failed</code> and is never sent for authorization; a flow without a 3RI step answers 422
<code>authentication_not_configured</code>). The simulator's 4000 0000 0000 3220 fails 3RI. A consumer-present payment never runs 3RI.</p>

<h2 id="declines-and-routing">Declines and routing</h2>
<p>Every failed authorization carries a <code>decline</code> — on its transaction, on the failed payment, on <code>last_failed_attempt</code>, in
<code>payment.failed</code> and <code>payment.attempt_failed</code> — the same for every processor: <code>category</code> (one of
<code>authentication_required</code>, <code>insufficient_funds</code>, <code>do_not_honor</code>, <code>suspected_fraud</code>, <code>invalid_card</code>,
<code>expired_card</code>, <code>lost_or_stolen</code>, <code>processor_unavailable</code>, <code>limit_exceeded</code>, <code>other</code>), <code>code</code>
(the <code>failure_reason</code>), the processor's <code>processor_code</code> and <code>processor_message</code>, the issuer's <code>advice_code</code> and
<code>retryable</code>.</p>
<p>A flow's authorization step decides what a decline does with <code>on_decline</code>: <code>step_up_3ds</code> (the issuer asked for authentication:
the same payment goes to a 3-D Secure challenge on the hosted page), <code>next_processor</code> (the step's next processor) or <code>stop</code>. Hard
declines — <code>lost_or_stolen</code>, <code>suspected_fraud</code>, <code>invalid_card</code>, or an advice that forbids a retry (Mastercard MAC 03
and 21, Visa category 1) — are never retried. Merchant-initiated charges of a declined card respect the schemes' retry limits (Visa 15 in 30 days,
Mastercard 10 in 24 hours and 35 in 30 days by default) and answer 422 <code>retry_limit_reached</code> past them.</p>
${code(`POST /flows
{"name": "learn-and-cascade", "capture_mode": "automatic", "steps": [
  {"kind": "authorization", "processors": ["<sim account A>", "<sim account B>"], "strategy": "success_rate",
   "on_decline": [{"categories": ["authentication_required"], "action": "step_up_3ds"},
                  {"categories": ["do_not_honor", "processor_unavailable"], "action": "next_processor"}]},
  {"kind": "capture", "processor": "<sim account A>"}]}`)}
<p>The step's <code>strategy</code> picks the first processor: <code>ordered</code> (the step's order), <code>weighted</code> (<code>weights</code>, a
volume split) or <code>success_rate</code> (the best recent authorization rate for the payment's card scheme, country of issue, currency and amount band,
with a small share of exploration). Each payment's <code>routing</code> says why every attempt went where it went; <code>GET /routing/stats</code> shows the
rates and counts decisions use and <code>POST /flow-matrix/explain</code> the choice for a sample payment. In test mode two simulator processor accounts can
differ: <code>settings.approval_rate</code> (the share of ordinary cards approved) and <code>settings.outage</code> (windows, on the test clock, when the account
answers nothing).</p>

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
<p>In the dashboard (Webhooks) choose an endpoint's event types and press "Send a test event" to see a signed delivery arrive.</p>
<h3>Event types</h3>
<table><thead><tr><th>type</th><th>sent when</th></tr></thead><tbody>${events}</tbody></table>

<h2 id="local-webhooks">Webhooks on your laptop</h2>
<p>Your shop on <code>http://localhost:4242</code> is not reachable from the internet, and live endpoints must be https on public addresses. Two ways:</p>
<ul>
<li><strong>A local endpoint, in test mode.</strong> When the service itself runs on loopback (<code>pnpm start</code>), a <em>test</em> key may register
<code>http://localhost…</code> or <code>http://127.0.0.1…</code> endpoints; live mode keeps https only. Elsewhere the refusal
(<code>url_not_allowed</code>) names <code>WEBHOOK_ALLOW_PRIVATE_URLS</code>, the setting that allows private addresses.</li>
<li><strong><code>vaultline listen</code>.</strong> The CLI receives your events over the API (no public URL needed), signs each one with a secret it
prints, forwards it to your local endpoint and prints it:</li>
</ul>
${code(`
vaultline listen --forward-to http://localhost:4242/webhooks/vaultline
vaultline trigger payment.captured      # in another shell: makes the test objects that cause the event
`)}
<p><code>vaultline trigger</code> takes any event type of the table above (<code>payment.failed</code>, <code>refund.succeeded</code>, …).</p>

<h2 id="dashboard">The dashboard</h2>
<p><a href="/dashboard/">/dashboard/</a> signs in with your secret key (<code>sk_test_…</code>: the key is sent once and kept nowhere; an httpOnly
session cookie stands for it). Overview figures; payments with their timeline (transactions, events and webhook deliveries, each event's
payload), capture, cancel and refund buttons, the 3-D Secure result and the cards tried; refunds, disputes, customers, tokens; flows and the
flow matrix; processor accounts; webhooks (event types, a test event, deliveries and replays); the Events page; the Checkout page (the hosted
page's name, colour and logo, with a preview); API keys (create, roll with an expiry for the old key, delete). The switch at the top moves
between test and live data. Support staff sign in with a <em>dashboard</em> key: they read everything and may capture, cancel and refund.</p>

<h2 id="sdk">The Node.js SDK</h2>
<p><code>@vaultline/node</code> is a typed client of this API (ESM with type declarations, Node 20 or later): every route of the reference is a call
named after its method (<code>vaultline.get</code>, <code>.post</code>, …) with the path as the reference writes it; POSTs carry an Idempotency-Key,
429 and 5xx answers are retried, errors are <code>VaultlineError</code> with <code>code</code> and <code>field</code>, lists page with
<code>vaultline.list</code>, and <code>vaultline.webhooks.verify</code> checks a delivery. Every operation of the <a href="/docs">reference</a> has a
Node.js sample beside its curl one.</p>
${code(`
npm install @vaultline/node        # from this repository: pnpm --filter @vaultline/node pack, then npm install ./vaultline-node-*.tgz
`)}
${code(`
import { Vaultline } from \u0027@vaultline/node\u0027;
const vaultline = new Vaultline(process.env.VAULTLINE_API_KEY, { baseUrl: '${base}' });
const payment = await vaultline.post('/payments/one-off', {
  body: { amount: 1250, currency_code: 'EUR', reference: 'order-1001', source: { type: 'vaultline' } },
});
console.log(payment.action_requirement.checkout_url);
`)}

<h2 id="cli">The CLI</h2>
<p><code>@vaultline/cli</code> installs the <code>vaultline</code> command (built on the SDK; tables for people, <code>--json</code> for scripts). It reads
<code>VAULTLINE_API_KEY</code> and <code>VAULTLINE_BASE_URL</code> (default <code>http://localhost:8080</code>); <code>vaultline --help</code> and
<code>vaultline &lt;command&gt; --help</code> list everything.</p>
${code(`
npm install -g @vaultline/cli          # from this repository: pnpm --filter @vaultline/cli pack, then npm install -g ./vaultline-cli-*.tgz
export VAULTLINE_API_KEY=sk_test_…
vaultline payments create --help       # a one-off payment; prints its checkout_url
vaultline payments list --status captured
vaultline refunds create --help        # refund a captured payment
vaultline customers --help
vaultline tokens list
vaultline events tail                  # follow new events
vaultline listen --forward-to http://localhost:4242/webhooks/vaultline
vaultline trigger payment.captured
`)}

<h2 id="example-shop">The example shop</h2>
<p><code>examples/shop</code> in the repository is a small shop built on the SDK: a product page, checkout through checkout.js (the hosted page as
fallback), orders moved by verified webhooks, Refund and Cancel order buttons. With the service running (<code>pnpm start</code>):</p>
${code(`
VAULTLINE_API_KEY=sk_test_newcomer_0123456789abcdef pnpm --filter @vaultline/example-shop start
`)}
<p>Open <code>http://localhost:4242</code>, buy something, pay with 4242 4242 4242 4242 (or 4000 0000 0000 0002, then another card), and watch the
order turn Paid, then Refunded. Its README walks through each call.</p>

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
  return docsPage({
    title: 'Guides',
    section: 'guides',
    toc: SECTIONS,
    body: `${body}\n<p id="copy-status" class="visually-hidden" role="status" aria-live="polite"></p>`,
    scripts: [assetUrl('guides.js')],
  });
}
