import { destinationPattern, destinationsOfManifest, pathMatches, paymentsPathOf } from '@vaultline/contracts';
import { ManualClock } from '@vaultline/core';
import type { CaptureOutcome, ProcessorConnection, ProcessorPayment } from '../domain/processor-port/processor-port';
import type { ConsumerAuthentication, RedirectAction } from '../domain/payment-vocabulary/authentication';
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
  /**
   * Plugins that declare authentication3ds: a card whose issuer asks for a challenge, and what the
   * consumer brings back from the issuer's page (the stand-in's page) after completing or failing it.
   */
  threeDs?: {
    challenged: Partial<ProcessorPayment>;
    consumerReturns: (action: RedirectAction, outcome: 'completed' | 'failed') => Promise<Record<string, string>>;
  };
  stop(): Promise<void>;
}

/** What a plugin's folder gives the suite: its stand-in started, the subject over it. */
export interface ProcessorContractCases {
  start(): Promise<ProcessorContractSubject>;
}

/** What the engine tells a consumer-present authorization (the return address is the hosted page's). */
export const contractConsumerAuthentication: ConsumerAuthentication = {
  three_ds: 'if_required',
  browser: {
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    accept_header: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    language: 'en-GB',
    screen_width: 1280,
    screen_height: 720,
    color_depth: 24,
    time_zone_offset: -60,
    java_enabled: false,
    ip_address: '203.0.113.7',
  },
  return_url: 'https://vaultline.example/checkout/01a208ee-5f6c-74c8-b99c-a50679101e0a/return',
  first_of_series: false,
};

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

async function settled(
  subject: ProcessorContractSubject,
  connection: ProcessorConnection,
  payment: ProcessorPayment,
  outcome: CaptureOutcome,
): Promise<CaptureOutcome> {
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

    it("when it is registered, then its manifest's id is its registry key and it names itself", () => {
      expect(subject.plugin.manifest.id).toBe(name);
      expect(subject.plugin.manifest.display_name).toEqual(expect.any(String));
    });

    it("when an account gives valid credentials, then they pass its schema and the hint's secret is one of them; invalid ones are refused", () => {
      const { credentials, manifest } = subject.plugin;
      expect(credentials.safeParse(subject.credentials).success).toBe(true);
      expect(credentials.safeParse(subject.invalidCredentials).success).toBe(false);
      expect(credentials.safeParse({ ...subject.credentials, not_a_credential: 'x' }).success).toBe(false);
      const secretField = manifest.credentials.secret_field;
      if (secretField !== null) expect(typeof subject.credentials[secretField]).toBe('string');
    });

    it('when its manifest lists its credential fields, then its schema takes exactly those: the examples pass, a required one left out fails, an optional one may be left out', () => {
      const { credentials, manifest } = subject.plugin;
      const examples = Object.fromEntries(manifest.credentials.fields.map((field) => [field.name, field.example]));
      expect(credentials.safeParse(examples).success).toBe(true);
      for (const field of manifest.credentials.fields) {
        const { [field.name]: _left, ...without } = examples;
        expect([field.name, credentials.safeParse(without).success]).toEqual([field.name, !field.required]);
      }
      const shape = (credentials as unknown as { shape?: Record<string, unknown> }).shape;
      if (shape) expect(Object.keys(shape).sort()).toEqual(manifest.credentials.fields.map((field) => field.name).sort());
    });

    it("when it has destinations, then its manifest gives a payments URL among them, which an account's base URL ends in", () => {
      const destinations = destinationsOfManifest(subject.plugin.manifest);
      for (const entry of destinations) expect(entry.processor).toBe(name);
      if (subject.plugin.opens === 'per_account') {
        const paymentsPath = paymentsPathOf(subject.plugin.manifest);
        expect(paymentsPath).toMatch(/^\//);
        const payments = destinations.filter((entry) => entry.purpose === 'payments');
        expect(payments.length).toBeGreaterThan(0);
        expect(payments.some((entry) => destinationPattern(entry.url).path.endsWith(paymentsPath!))).toBe(true);
      }
    });

    it('when its options are valid, then it opens a connection with its id and its declared capabilities', () => {
      const connection = open();
      expect(connection.id).toBe(subject.plugin.manifest.id);
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
      const paths = destinationsOfManifest(subject.plugin.manifest)
        .filter((entry) => entry.mode !== 'live')
        .map((entry) => destinationPattern(entry.url).path);
      for (const url of subject.sentUrls?.() ?? []) {
        const { pathname } = new URL(url);
        expect([pathname, paths.some((pattern) => pathMatches(pattern, pathname))]).toEqual([pathname, true]);
      }
    });

    it("when it notifies, then a notification its stand-in signed verifies with the account's credentials and is answered 200, and does not verify with another account's", () => {
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

    it('when the plugin declares 3-D Secure, then the connection can resume an authorization', () => {
      const connection = open();
      if (connection.capabilities.authentication3ds) expect(typeof connection.resumeAuthorization).toBe('function');
    });

    // The 3-D Secure cases run for every plugin that declares it (the subject is known only once started).
    const threeDsOf = () => (subject.plugin.capabilities.authentication3ds ? subject.threeDs : undefined);
    const challenged = (key: string) =>
      basePayment({ ...threeDsOf()!.challenged, idempotency_key: key, consumer_authentication: contractConsumerAuthentication });
    const resumeWith = async (key: string, outcome: 'completed' | 'failed') => {
      const connection = open();
      const payment = challenged(key);
      const answer = await connection.authorize(payment);
      if (answer.status !== 'action_required') throw new Error(`expected action_required, got ${answer.status}`);
      const parameters = await threeDsOf()!.consumerReturns(answer.action, outcome);
      return connection.resumeAuthorization!(payment, { processor_reference: answer.processor_reference, resume: answer.resume, parameters });
    };

    it("when the plugin declares 3-D Secure, then its contract cases give a challenged card and the consumer's return", () => {
      if (subject.plugin.capabilities.authentication3ds) expect(subject.threeDs).toEqual(expect.objectContaining({ challenged: expect.any(Object) }));
    });

    it('when the issuer asks for a challenge, then the authorization answers action_required with a redirect the hosted page can follow and the return parameters it reads', async () => {
      if (!threeDsOf()) return;
      const answer = await open().authorize(challenged('contract:3ds-challenge'));
      expect(answer).toMatchObject({
        status: 'action_required',
        action: { type: 'redirect', url: expect.stringMatching(/^https?:\/\//), method: expect.stringMatching(/^(GET|POST)$/) },
      });
      expect(answer.status === 'action_required' && answer.return_parameters.length).toBeGreaterThan(0);
      // What the engine stores to resume is never card data.
      expect(JSON.stringify(answer)).not.toMatch(/\d{13,19}/);
    });

    it('when the consumer completes the challenge and comes back, then the authorization succeeds with the authentication result', async () => {
      if (!threeDsOf()) return;
      const outcome = await resumeWith('contract:3ds-completed', 'completed');
      expect(outcome).toMatchObject({ status: 'succeeded', authentication: { type: '3ds', status: 'authenticated' } });
    });

    it('when the consumer fails the challenge, then the authorization fails with authentication_failed', async () => {
      if (!threeDsOf()) return;
      const outcome = await resumeWith('contract:3ds-failed', 'failed');
      expect(outcome).toMatchObject({ status: 'failed', failure_reason: 'authentication_failed' });
    });

    it('when a merchant-initiated payment is authorized (no consumer), then it is never asked to authenticate', async () => {
      if (!threeDsOf()) return;
      const outcome = await open().authorize(
        basePayment({
          ...threeDsOf()!.challenged,
          use_case: 'SUBSEQUENT_RECURRING',
          stored_credential: 'stored',
          network_transaction_reference: 'NTR-contract',
          idempotency_key: 'contract:3ds-mit',
        }),
      );
      expect(outcome.status).not.toBe('action_required');
    });

    it('when a merchant-initiated payment carries the initial network transaction reference, then it is authorized', async () => {
      const connection = open();
      const initial = await connection.authorize(basePayment(subject.approved));
      const reference = initial.status === 'succeeded' ? (initial.network_transaction_reference ?? null) : null;
      const outcome = await connection.authorize(
        basePayment({
          ...subject.approved,
          use_case: 'SUBSEQUENT_RECURRING',
          stored_credential: 'stored',
          network_transaction_reference: reference,
          idempotency_key: 'contract:mit',
        }),
      );
      expect(outcome.status).toBe('succeeded');
    });
  });
}
