import { ManualClock } from '@vaultline/core';
import type { CaptureOutcome, ProcessorConnection, ProcessorPayment } from '../domain/ports';
import type { ProcessorContext, ProcessorPlugin } from './processor-plugin';

/**
 * The suite every processor plugin passes (run from a *.test.ts beside the plugin, against the plugin
 * itself or its stand-in). `cards` names, in the plugin's own terms, an approved and a declined card;
 * `options` are valid options for it.
 */
export interface ProcessorContractSubject<O> {
  plugin: ProcessorPlugin<O>;
  options: unknown;
  invalidOptions: unknown;
  approved: Partial<ProcessorPayment>;
  declined: Partial<ProcessorPayment>;
  /** Real processors: how the connection reaches the processor (a stand-in, through a placeholder-filling transport). */
  context?: Omit<ProcessorContext, 'clock'>;
  /** Resolves a capture that answered pending (polls captureStatus; a stand-in may need its clock moved). */
  settle?: (connection: ProcessorConnection, payment: ProcessorPayment, pending: CaptureOutcome) => Promise<CaptureOutcome>;
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

async function settled(subject: ProcessorContractSubject<unknown>, connection: ProcessorConnection, payment: ProcessorPayment, outcome: CaptureOutcome): Promise<CaptureOutcome> {
  let current = outcome;
  for (let i = 0; current.status === 'pending' && i < 10; i++) {
    current = subject.settle ? await subject.settle(connection, payment, current) : await connection.captureStatus(payment, current.processor_reference);
  }
  return current;
}

export function processorContract<O>(name: string, subject: ProcessorContractSubject<O>): void {
  const open = () => subject.plugin.open(subject.plugin.optionsSchema.parse(subject.options), { clock: new ManualClock(), ...subject.context });

  describe(`processor plugin contract: ${name}`, () => {
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
      expect((await settled(subject as ProcessorContractSubject<unknown>, connection, capture, first)).status).toBe('succeeded');
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
