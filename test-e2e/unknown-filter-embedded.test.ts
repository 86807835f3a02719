import { buildOpenApiDocument } from '@vaultline/contracts';
import { resolveRoute } from '../services/gateway/src/domain/routing';
import { startSystem, type RunningSystem } from './support/merchant-api';
import { PAYMENT_ENV } from './support/payment-scenario';

/*
 * Issue #34, finding 7: an unknown query filter was ignored: GET /payments?currency_code=JPY listed EUR
 * payments. Every read of the merchant API now takes only the query parameters its operation lists in the
 * OpenAPI document (the gateway checks, one mechanism for every service), and refuses any other with 422
 * unknown_filter naming it.
 */

const document = buildOpenApiDocument({ audience: 'merchant' });
const SOME_ID = '0f4c1a52-8c8f-4a64-9d5e-5b4c2a1f0e3d';
/** Every read the merchant's key reaches (the public checkout routes excepted), its path parameters filled with an id. */
const reads = Object.entries(document.paths as Record<string, Record<string, unknown>>)
  .filter(([path, item]) => 'get' in item && (path === '/api-keys' || resolveRoute(path)?.access === 'merchant'))
  .map(([path]) => ({ template: path, path: path.replace(/\{[^}]+\}/g, SOME_ID) }));

describe('unknown query filters on the merchant API (embedded profile)', () => {
  let running: RunningSystem;

  beforeAll(async () => {
    running = await startSystem(PAYMENT_ENV, 'vaultline-unknown-filter-');
  }, 60_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('when GET /payments is asked for currency_code=JPY, then it is refused 422 unknown_filter naming currency_code and the filters it takes, where it listed the EUR payments', async () => {
    const created = await running.merchant.call('POST', '/payments/one-off', { json: { amount: 1250, currency_code: 'EUR', source: { type: 'vaultline' } } });
    expect(created.status).toBe(200);
    const answer = await running.merchant.call('GET', '/payments?currency_code=JPY');
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.json()).toMatchObject({
      code: 'unknown_filter',
      field: 'currency_code',
      detail:
        'currency_code is not a filter of GET /payments: it takes limit, starting_after, order, status, reference, customer_id, use_case, created_gte, created_lte.',
    });
    const listed = await running.merchant.call('GET', '/payments?status=processing&limit=5');
    expect([listed.status, listed.json<{ data: Array<{ currency_code: string }> }>().data.map((p) => p.currency_code)]).toEqual([200, ['EUR']]);
  });

  it(`when any of the ${reads.length} merchant reads (payments, refunds, disputes, customers, tokens, events, imports, reports, …) gets a parameter it does not list, then each answers 422 unknown_filter naming it`, async () => {
    expect(reads.map((read) => read.template)).toEqual(
      expect.arrayContaining([
        '/payments',
        '/refunds',
        '/disputes',
        '/customers',
        '/tokens',
        '/events',
        '/tokens/imports',
        '/webhook-endpoints',
        '/api-keys',
        '/reports/payments',
        '/reports/webhook-deliveries',
      ]),
    );
    const answers = await Promise.all(
      reads.map(async (read) => {
        const answer = await running.merchant.call('GET', `${read.path}?limit=1&not_a_filter=1`);
        return [read.template, answer.status, answer.json<{ code?: string; field?: string }>().code, answer.json<{ field?: string }>().field];
      }),
    );
    // A read without pages does not take limit either: the first parameter it does not list is named.
    expect(answers).toEqual(reads.map((read) => [read.template, 422, 'unknown_filter', hasLimit(read.template) ? 'not_a_filter' : 'limit']));
  });

  it('when a read gets only parameters it lists, then the gateway lets it through to its service', async () => {
    const answers = await Promise.all([
      running.merchant.call('GET', `/refunds?status=succeeded&payment_id=${SOME_ID}&limit=2&order=asc`),
      running.merchant.call('GET', '/events?type=payment.processing&limit=1'),
      running.merchant.call('GET', '/tokens?business_key=order-1'),
      running.merchant.call('GET', '/reports/payments?from=2026-11-01&to=2026-11-02'),
      running.merchant.call('GET', '/tokens/imports?limit=1'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

function hasLimit(template: string): boolean {
  const item = (document.paths as Record<string, { get: { parameters?: Array<{ $ref?: string; name?: string }> } }>)[template]!;
  return (item.get.parameters ?? []).some((parameter) => parameter.$ref === '#/components/parameters/Limit' || parameter.name === 'limit');
}
