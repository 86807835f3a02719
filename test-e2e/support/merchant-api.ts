import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, startKafkaProfile, startLocal, type EmbeddedSystem } from '@vaultline/launcher';
import { kafkaAnswers, kafkaAvailability, kafkaTestPrefix, reportSkipped } from '@vaultline/testing';

/** A small client of the merchant API as a merchant backend calls it: through the gateway, with X-API-Key. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
  name?: string;
}

export interface TokenView {
  id: string;
  business_key: string | null;
  masked_account_number: string;
  expiry_month: number;
  expiry_year: number;
  scheme: string;
}

export interface MerchantEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  data: D;
}

async function answerOf(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
}

export class MerchantApi {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  async call(method: string, path: string, options: { json?: unknown; body?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'X-API-Key': this.apiKey, ...options.headers };
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    return answerOf(await fetch(`${this.baseUrl}${path}`, { method, headers, body }));
  }

  async createToken(card: CardInput, businessKey?: string): Promise<TokenView> {
    const answer = await this.call('POST', '/tokens', { json: { card, ...(businessKey ? { business_key: businessKey } : {}) } });
    if (answer.status !== 201) throw new Error(`POST /tokens answered ${answer.status}: ${answer.text}`);
    return answer.json<TokenView>();
  }

  async tokensByBusinessKey(businessKey: string): Promise<TokenView[]> {
    const answer = await this.call('GET', `/tokens?business_key=${encodeURIComponent(businessKey)}`);
    if (answer.status !== 200) throw new Error(`GET /tokens answered ${answer.status}: ${answer.text}`);
    return answer.json<{ data: TokenView[] }>().data;
  }

  /** Every event of the merchant's event log of one type (all pages). */
  async events<D = Record<string, unknown>>(type: string): Promise<Array<MerchantEvent<D>>> {
    const events: Array<MerchantEvent<D>> = [];
    let after: string | null = null;
    do {
      const answer = await this.call('GET', `/events?type=${encodeURIComponent(type)}&limit=100${after ? `&starting_after=${after}` : ''}`);
      if (answer.status !== 200) throw new Error(`GET /events answered ${answer.status}: ${answer.text}`);
      const page = answer.json<{ data: Array<MerchantEvent<D>>; has_more: boolean; next_cursor: string | null }>();
      events.push(...page.data);
      after = page.has_more ? page.next_cursor : null;
    } while (after);
    return events;
  }
}

/** Creates a merchant through the operator API (X-Admin-Key) and returns a client with its first key. */
export async function createMerchant(system: Pick<EmbeddedSystem, 'baseUrl' | 'adminApiKey'>, name: string, cardDataAccess: boolean): Promise<MerchantApi> {
  const response = await fetch(`${system.baseUrl}/admin/merchants`, {
    method: 'POST',
    headers: { 'X-Admin-Key': system.adminApiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, card_data_access: cardDataAccess }),
  });
  const answer = await answerOf(response);
  if (answer.status !== 201) throw new Error(`POST /admin/merchants answered ${answer.status}: ${answer.text}`);
  return new MerchantApi(system.baseUrl, answer.json<{ api_key: string }>().api_key);
}

/** One merchant with a key of each mode: its test world and its live world. */
export interface MerchantOfBothModes {
  id: string;
  test: MerchantApi;
  live: MerchantApi;
}

/** Creates a merchant (its first key is a test key) and issues it a live key through the operator API. */
export async function createMerchantOfBothModes(system: Pick<EmbeddedSystem, 'baseUrl' | 'adminApiKey'>, name: string): Promise<MerchantOfBothModes> {
  const admin = async (path: string, body: unknown) =>
    answerOf(
      await fetch(`${system.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'X-Admin-Key': system.adminApiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const merchant = await admin('/admin/merchants', { name, card_data_access: true });
  if (merchant.status !== 201) throw new Error(`POST /admin/merchants answered ${merchant.status}: ${merchant.text}`);
  const { id, api_key: testKey } = merchant.json<{ id: string; api_key: string }>();
  const live = await admin(`/admin/merchants/${id}/api-keys`, { mode: 'live', label: 'live' });
  if (live.status !== 201) throw new Error(`issuing a live key answered ${live.status}: ${live.text}`);
  return { id, test: new MerchantApi(system.baseUrl, testKey), live: new MerchantApi(system.baseUrl, live.json<{ api_key: string }>().api_key) };
}

export const MERCHANT_API_KEY = 'sk_test_e2e_merchant_0123456789abcdef';
export const ADMIN_API_KEY = 'admin_e2e_0123456789abcdef0123456789ab';

export interface RunningSystem {
  system: EmbeddedSystem;
  dataDir: string;
  merchant: MerchantApi;
  /** Stops every service and removes the data directory. */
  stop(): Promise<void>;
}

/** The whole embedded system on a free port over a fresh temporary data directory. */
export async function startSystem(env: Record<string, string>, dataDirPrefix: string): Promise<RunningSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), dataDirPrefix));
  const system = await startEmbedded({
    dataDir,
    port: 0,
    env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'silent', ...env },
  });
  return {
    system,
    dataDir,
    merchant: new MerchantApi(system.baseUrl, MERCHANT_API_KEY),
    stop: async () => {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A running system of either profile, as a merchant's backend sees it. */
export interface RunningProfile {
  baseUrl: string;
  merchant: MerchantApi;
  stop(): Promise<void>;
}

/** The embedded profile (one process, SQLite bus) and the local one (a process per service, Redis Streams), by name. */
export const PROFILES: Array<[string, (env: Record<string, string>, dataDirPrefix: string) => Promise<RunningProfile>]> = [
  [
    'embedded profile',
    async (env, dataDirPrefix) => {
      const running = await startSystem(env, dataDirPrefix);
      return { baseUrl: running.system.baseUrl, merchant: running.merchant, stop: running.stop };
    },
  ],
  [
    'local profile (a process per service, Redis Streams)',
    async (env, dataDirPrefix) => {
      const dataDir = mkdtempSync(join(tmpdir(), `${dataDirPrefix}local-`));
      return runningProcesses(
        await startLocal({ dataDir, port: 0, stdio: 'files', env: { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'warn', ...env } }),
        dataDir,
      );
    },
  ],
];

/** A profile of a process per service as a merchant's backend sees it; stopping it removes its data directory. */
function runningProcesses(system: { baseUrl: string; stop(): Promise<void> }, dataDir: string): RunningProfile {
  return {
    baseUrl: system.baseUrl,
    merchant: new MerchantApi(system.baseUrl, MERCHANT_API_KEY),
    stop: async () => {
      await system.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The Kafka profile (pnpm start:kafka: a process per service, the bus on KAFKA_BROKERS), its topics and groups
 * under a prefix of its own (KAFKA_TOPIC_PREFIX), so runs on the one broker never meet.
 */
export const KAFKA_PROFILE: (typeof PROFILES)[number] = [
  'Kafka profile (a process per service, Kafka)',
  async (env, dataDirPrefix) => {
    const brokers = process.env.KAFKA_BROKERS;
    if (!brokers) throw new Error('the Kafka profile needs KAFKA_BROKERS (scripts/kafka start; scripts/test-all starts one)');
    if (!kafkaAnswers(brokers)) throw new Error(`Kafka at ${brokers} (KAFKA_BROKERS) does not answer: scripts/kafka start`);
    const dataDir = mkdtempSync(join(tmpdir(), `${dataDirPrefix}kafka-`));
    const systemEnv = { BOOTSTRAP_API_KEY: MERCHANT_API_KEY, ADMIN_API_KEY, LOG_LEVEL: 'warn', KAFKA_TOPIC_PREFIX: kafkaTestPrefix('e2e'), ...env };
    return runningProcesses(await startKafkaProfile({ dataDir, port: 0, stdio: 'files', brokers, env: systemEnv }), dataDir);
  },
];

/**
 * PROFILES and the Kafka profile where a broker is configured. In CI it is always there (its tests fail
 * without a broker, they are never left out); elsewhere without KAFKA_BROKERS it is left out with one
 * `[skipped]` line naming `label`.
 */
export function profilesWithKafka(label: string): typeof PROFILES {
  const availability = kafkaAvailability();
  const inCi = Boolean(process.env.CI) && process.env.CI !== 'false';
  if (availability.available || inCi) return [...PROFILES, KAFKA_PROFILE];
  reportSkipped(`${label} in the Kafka profile`, availability.reason);
  return PROFILES;
}
