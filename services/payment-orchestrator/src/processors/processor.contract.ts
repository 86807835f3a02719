import { destinationPattern, pathMatches } from '@vaultline/contracts';
import { ManualClock } from '@vaultline/core';
import type { CaptureOutcome, ProcessorConnection, ProcessorPayment } from '../domain/ports';
import type { ProcessorContext, ProcessorPlugin } from './processor-plugin';

/**
 * The suite every processor plugin passes, run by processors.contract.test.ts for every registered
 * plugin against the cases in its folder (`<id>/contract-cases.ts`: the plugin itself or its stand-in).
 * `approved` and `declined` name, in the plugin's own terms, an approved and a declined card; `options`
 * are valid options for it.
 */
export interface ProcessorContractSubject {
  plugin: ProcessorPlugin;
  options: unknown;
  invalidOptions: unknown;
  /** Valid account credentials, valid ones of another account (other secrets), and a set its schema refuses. */
  credentials: Record<string, unknown>;
  otherCredentials: Record<string, unknown>;
  invalidCredentials: Record<string, unknown>;
  approved: Partial<ProcessorPayment>;
  declined: Partial<ProcessorPayment>;
  /** Real processors: how the connection reaches the processor (a stand-in, through a placeholder-filling transport). */
  context?: Omit<ProcessorContext, 'clock'>;
  /** Real processors: the URLs the transport sent to so far (each must be one of the plugin's destinations). */
  sentUrls?: () => string[];
  /** Resolves a capture that answered pending (polls captureStatus; a stand-in may need its clock moved). */
  settle?: (connection: ProcessorConnection, payment: ProcessorPayment, pending: CaptureOutcome) => Promise<CaptureOutcome>;
  /** Processors that notify: the newest notification the stand-in signed for the account (after a capture), as it is delivered. */
  notification?: () => { rawBody: Buffer; headers: Record<string, string> };
  stop(): Promise<void>;
}

/** What a plugin's folder gives the suite: its stand-in started, the subject over it. */
export interface ProcessorContractCases {
  start(): Promise<ProcessorContractSubject>;
}

const basePayment = (overrides: Partial<ProcessorPayment>): ProcessorPayment => ({
  payment_id: '01a208ee-5f6c-74c8-b99c-a50679101e09',
  merchant_id: 'merchant_contract',
  mode: 'test',
  use_case: 'ONE_OFF',
  stored_credential: 'none',
  amount: 1250,
  currency_code: 'EUR',
  reference: 'contract-1',
  token_id: '01a208ee-5f6c-74c8-b99c-000000000001',
  masked_account_number: '424242******4242',
  scheme: 'VISA',
  network_transaction_reference: null,
  authentication_preference: null,
  idempotency_key: 'contract:authorization',
  ...overrides,
});

async function settled(subject: ProcessorContractSubject, connection: ProcessorConnection, payment: ProcessorPayment, outcome: CaptureOutcome): Promise<CaptureOutcome> {
  let current = outcome;
  for (let i = 0; current.status === 'pending' && i < 10; i++) {
    current = subject.settle ? await subject.settle(connection, payment, current) : await connection.captureStatus(payment, current.processor_reference);
  }
  return current;
}

export function processorContract(name: string, cases: ProcessorContractCases): void {
  let subject: ProcessorContractSubject;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const open = () => subject.plugin.open(subject.plugin.optionsSchema.parse(subject.options) as any, { clock: new ManualClock(), ...subject.context });

  describe(`processor plugin contract: ${name}`, () => {
    beforeAll(async () => {
      subject = await cases.start();
    });
    afterAll(async () => {
      await subject?.stop();
    });

    it('when it is registered, then its id is its registry key and it names itself', () => {
      expect(subject.plugin.id).toBe(name);
      expect(subject.plugin.displayName).toEqual(expect.any(String));
    });

    it('when an account gives valid credentials, then they pass its schema and the hint\'s secret is one of them; invalid ones are refused', () => {
      const { account } = subject.plugin;
      expect(account.credentials.safeParse(subject.credentials).success).toBe(true);
      expect(account.credentials.safeParse(subject.invalidCredentials).success).toBe(false);
      expect(account.credentials.safeParse({ ...subject.credentials, not_a_credential: 'x' }).success).toBe(false);
      if (account.secretField !== null) expect(typeof subject.credentials[account.secretField]).toBe('string');
      expect(account.paymentsPath).toMatch(/^\//);
    });

    it('when it has destinations, then each is a catalog entry of its own with a payments URL among them', () => {
      for (const entry of subject.plugin.destinations) expect(entry.processor).toBe(name);
      if (subject.plugin.opens === 'per_account') {
        const payments = subject.plugin.destinations.filter((entry) => entry.purpose === 'payments');
        expect(payments.length).toBeGreaterThan(0);
        expect(payments.some((entry) => destinationPattern(entry.url).path.endsWith(subject.plugin.account.paymentsPath))).toBe(true);
      }
    });

    it('when its options are valid, then it opens a connection with its id and its declared capabilities', () => {
      const connection = open();
      expect(connection.id).toBe(subject.plugin.id);
      expect(connection.capabilities).toEqual(subject.plugin.capabilities);
      expect(connection.capabilities.authorize).toBe(true);
    });

    it('when its options are invalid, then the options schema refuses them (checked at start)', () => {
      expect(subject.plugin.optionsSchema.safeParse(subject.invalidOptions).success).toBe(false);
    });

    it('when a declared capability is a step, then the connection implements it', () => {
      const connection = open();
      if (connection.capabilities.risk) expect(typeof connection.assessRisk).toBe('function');
      if (connection.capabilities.authentication3ri) expect(typeof connection.authenticate3ri).toBe('function');
      expect(typeof connection.capture).toBe('function');
    });

    it('when an approved card is authorized, then it succeeds with a processor reference and a network transaction reference', async () => {
      const outcome = await open().authorize(basePayment(subject.approved));
      expect(outcome).toMatchObject({ status: 'succeeded', processor_reference: expect.any(String) });
      expect(outcome.status === 'succeeded' && outcome.network_transaction_reference).toEqual(expect.any(String));
    });

    it('when a declined card is authorized, then it fails with a failure reason (not a retryable error)', async () => {
      // Its own idempotency key: a processor that honours keys answers a repeated key with the first answer.
      const outcome = await open().authorize(basePayment({ idempotency_key: 'contract:declined', ...subject.declined }));
      expect(outcome).toMatchObject({ status: 'failed', failure_reason: expect.any(String) });
    });

    it('when the same request is sent twice (same idempotency key), then the answer is the same', async () => {
      const connection = open();
      const payment = basePayment(subject.approved);
      expect(await connection.authorize(payment)).toEqual(await connection.authorize(payment));
    });

    it('when an authorized payment is captured, then the capture succeeds, at once or once settled', async () => {
      const connection = open();
      const payment = basePayment(subject.approved);
      const authorization = await connection.authorize(payment);
      const capture = { ...payment, idempotency_key: 'contract:capture' };
      const first = await connection.capture(capture, authorization.status === 'succeeded' ? authorization.processor_reference : null);
      expect(['succeeded', 'pending']).toContain(first.status);
      expect((await settled(subject, connection, capture, first)).status).toBe('succeeded');
    });

    it('when it sent requests, then every one went to a path of its destinations', () => {
      // The stand-in serves the test host's paths.
      const paths = subject.plugin.destinations.filter((entry) => entry.mode !== 'live').map((entry) => destinationPattern(entry.url).path);
      for (const url of subject.sentUrls?.() ?? []) {
        const { pathname } = new URL(url);
        expect([pathname, paths.some((pattern) => pathMatches(pattern, pathname))]).toEqual([pathname, true]);
      }
    });

    it('when it notifies, then a notification its stand-in signed verifies with the account\'s credentials and is answered 200, and does not verify with another account\'s', () => {
      const notifications = subject.plugin.notifications;
      if (!notifications || !subject.notification) return;
      const { rawBody, headers } = subject.notification();
      const now = new Date();
      const items = notifications.verify(subject.credentials, rawBody, headers, now);
      expect(items?.length).toBeGreaterThan(0);
      expect(items!.every((item) => item.verified)).toBe(true);
      expect(notifications.answer({ accepted: items!.length, duplicates: 0, refused: 0, malformed: false })).toMatchObject({ status: 200 });
      const forged = notifications.verify(subject.otherCredentials, rawBody, headers, now);
      expect(forged === null || forged.every((item) => !item.verified)).toBe(true);
    });

    it('when a merchant-initiated payment carries the initial network transaction reference, then it is authorized', async () => {
      const connection = open();
      const initial = await connection.authorize(basePayment(subject.approved));
      const reference = initial.status === 'succeeded' ? (initial.network_transaction_reference ?? null) : null;
      const outcome = await connection.authorize(basePayment({ ...subject.approved, use_case: 'SUBSEQUENT_RECURRING', stored_credential: 'stored', network_transaction_reference: reference, idempotency_key: 'contract:mit' }));
      expect(outcome.status).toBe('succeeded');
    });
  });
}
