import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '@vaultline/contracts';
import { waitFor } from '@vaultline/core';
import { Vaultline, WebhookVerificationError, verifyWebhook } from '@vaultline/node';
import { coverageOf, merchantRoutes, recordingFetch, type RecordedCall } from './support/sdk-answers';
import { SDKS, startContractService, type ContractService } from './support/sdk-polyglot';
import { signatureHeaders, startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * The shared contract scenario of the SDKs (sdks/test-vectors/contract-scenario.json), which the Python and
 * Go contract tests run through their typed methods, run through the Node SDK too: so the scenario itself is
 * held to the document (every answer it gets is checked against the OpenAPI document) and reaches every
 * merchant route with a 2xx answer, whichever SDK runs it.
 */
interface Step {
  call?: string;
  path?: Record<string, unknown>;
  params?: Record<string, unknown>;
  body?: unknown;
  raw_body?: string;
  headers?: Record<string, string>;
  until?: Condition & { succeeds?: boolean; fails_if?: Condition };
  expect?: Check[];
  save?: string;
  verify_webhook?: { containing: string; secret: string };
}
interface Condition {
  path?: string;
  equals?: unknown;
  exists?: boolean;
}
interface Check {
  path: string;
  equals?: unknown;
  not_equals?: unknown;
  matches?: string;
  includes?: unknown;
  only?: unknown;
}

type Parameter = { name: string; in: string };
type DocumentOperation = { operationId: string; parameters?: Array<Parameter | { $ref: string }> };
const document = buildOpenApiDocument();

/** The operation of an operationId: its method, path template and the place (query or header) of each parameter. */
function operationOf(operationId: string): { method: string; template: string; places: Map<string, string>; paginated: boolean } {
  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, DocumentOperation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId !== operationId) continue;
      const parameters = (operation.parameters ?? []).map((p) =>
        '$ref' in p ? (document.components as { parameters: Record<string, Parameter> }).parameters[p.$ref.split('/').pop()!]! : p,
      );
      const places = new Map(parameters.map((p) => [p.name, p.in]));
      return { method, template, places, paginated: places.get('starting_after') === 'query' };
    }
  }
  throw new Error(`no operation ${operationId} in the document`);
}

/** The value at a dotted path; * maps over a list. */
function atPath(value: unknown, path: string): unknown {
  if (!path) return value;
  const [head, ...rest] = path.split('.');
  if (head === '*') return (value as unknown[]).map((item) => atPath(item, rest.join('.')));
  const next = Array.isArray(value) ? value[Number(head)] : value && typeof value === 'object' ? (value as Record<string, unknown>)[head!] : undefined;
  return atPath(next, rest.join('.'));
}

const holds = (answer: unknown, condition: Condition): boolean => {
  const value = atPath(answer, condition.path ?? '');
  return 'equals' in condition ? value === condition.equals : condition.exists === true && value !== undefined && value !== null;
};

describe('the shared contract scenario, run through the Node SDK', () => {
  let service: ContractService;
  let receiver: WebhookReceiver;
  let vaultline: Vaultline;
  const calls: RecordedCall[] = [];
  const saved = new Map<string, unknown>();

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    service = await startContractService('vaultline-sdk-scenario-');
    vaultline = new Vaultline(service.env.VAULTLINE_API_KEY!, { baseUrl: service.env.VAULTLINE_BASE_URL, fetch: recordingFetch(calls) });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await receiver?.stop();
  });

  const variables = (): Record<string, unknown> => ({
    receiver_url: receiver.url,
    forward_url: service.env.VAULTLINE_FORWARD_URL,
    forward_api_key: service.env.VAULTLINE_FORWARD_API_KEY,
  });

  function lookup(expression: string): unknown {
    const known = variables();
    if (expression in known) return known[expression];
    const offset = /^(date|date_compact|time):([+-]\d+)$/.exec(expression);
    if (offset) {
      const at = new Date(Date.now() + Number(offset[2]) * 86_400_000).toISOString();
      return offset[1] === 'time' ? at : offset[1] === 'date' ? at.slice(0, 10) : at.slice(0, 10).replace(/-/g, '');
    }
    const [name, ...rest] = expression.split('.');
    if (!saved.has(name!)) throw new Error(`nothing saved as ${name}`);
    return atPath(saved.get(name!), rest.join('.'));
  }

  function resolve(value: unknown): unknown {
    if (typeof value === 'string') {
      const whole = /^\$\{([^}]+)\}$/.exec(value);
      return whole ? lookup(whole[1]!) : value.replace(/\$\{([^}]+)\}/g, (_, expression: string) => String(lookup(expression)));
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
    return value;
  }

  async function call(step: Step): Promise<unknown> {
    const operation = operationOf(step.call!);
    const query: Record<string, unknown> = {};
    const header: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(resolve(step.params ?? {}) as Record<string, unknown>))
      (operation.places.get(name) === 'header' ? header : query)[name] = value;
    let body = step.body === undefined ? undefined : resolve(step.body);
    if (step.raw_body !== undefined) {
      body = JSON.parse(step.raw_body);
      expect(JSON.stringify(body)).toBe(step.raw_body); // the signed bytes, exactly
    }
    const init = {
      params: { path: resolve(step.path ?? {}), query, header },
      ...(body === undefined ? {} : { body }),
      ...(step.headers ? { headers: resolve(step.headers) } : {}),
    };
    const client = vaultline as unknown as Record<string, (path: string, init: object) => Promise<unknown>> & {
      list(path: string, init: object): AsyncIterable<unknown>;
    };
    if (!operation.paginated) return client[operation.method]!(operation.template, init);
    const items: unknown[] = [];
    for await (const item of client.list(operation.template, init)) items.push(item);
    return items;
  }

  function check(answer: unknown, raw: Check, operation: string): void {
    const rule = resolve(raw) as Check;
    const value = atPath(answer, rule.path);
    const where = `${operation}: ${rule.path}`;
    if ('equals' in rule) expect({ where, value }).toEqual({ where, value: rule.equals });
    if ('not_equals' in rule) expect({ where, value }).not.toEqual({ where, value: rule.not_equals });
    if (rule.matches) expect(value).toMatch(new RegExp(rule.matches));
    if ('includes' in rule) expect({ where, value }).toEqual({ where, value: expect.arrayContaining([rule.includes]) });
    if ('only' in rule) expect({ where, values: [...new Set(value as unknown[])] }).toEqual({ where, values: [rule.only] });
  }

  it(
    'calls every merchant route of the OpenAPI document with a 2xx answer, every answer the documented one',
    async () => {
      const { steps } = JSON.parse(readFileSync(join(SDKS, 'test-vectors/contract-scenario.json'), 'utf8')) as { steps: Step[] };
      for (const step of steps) {
        if (step.verify_webhook) {
          const { containing, secret } = resolve(step.verify_webhook) as { containing: string; secret: string };
          const delivered = await waitFor(() => receiver.received.find((webhook) => webhook.body.includes(containing)), 60_000, 100);
          expect(verifyWebhook(delivered.body, delivered.headers, secret)).toMatchObject({ type: expect.stringContaining(containing) });
          expect(() => verifyWebhook(delivered.body.replace(containing, 'token.deleted'), signatureHeaders(delivered), secret)).toThrow(
            WebhookVerificationError,
          );
          continue;
        }
        const until = step.until;
        let failed = false;
        const answer = until
          ? await waitFor(
              async () => {
                const got = await call(step);
                failed = until.fails_if !== undefined && holds(got, until.fails_if);
                return failed || until.succeeds || holds(got, until) ? { got } : null;
              },
              60_000,
              100,
            ).then(({ got }) => got)
          : await call(step);
        expect({ step: step.call, failed }).toEqual({ step: step.call, failed: false });
        for (const rule of step.expect ?? []) check(answer, rule, step.call!);
        if (step.save) saved.set(step.save, answer);
      }

      const { covered, missing } = coverageOf(calls);
      console.log(
        `Node SDK route coverage (shared scenario): ${covered} of ${merchantRoutes.length} merchant routes called through the SDK with a 2xx answer (${calls.length} requests)`,
      );
      expect(missing).toEqual([]);
      expect(calls.filter((recorded) => recorded.problems.length > 0)).toEqual([]);
    },
    10 * 60_000,
  );
});
