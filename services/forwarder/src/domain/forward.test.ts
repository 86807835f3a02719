import { sensitive, systemClock } from '@vaultline/core';
import { PROCESSOR_DESTINATIONS } from '@vaultline/contracts';
import { catalogRules, ruleFromUrl, type DestinationRule } from './destination-policy';

const BUILT_IN_DESTINATIONS = catalogRules(PROCESSOR_DESTINATIONS);
import { destinationDirectory } from './destination-directory';
import type { MerchantDestination } from './merchant-destination';
import type { ForwardRecord } from './forward-record';
import { forwardAudit } from './record-forward';
import { forwardRequest, type ForwardCommand } from './forward';
import { TokenNotFoundError } from './forward-errors';
import type { DestinationRequest, DestinationResponse } from './ports';

const DESTINATION = 'https://psp.example/v1/payments';

/** A write the test lets finish (or fail) when it chooses. */
function heldWrites() {
  const writes: Array<{ record: ForwardRecord; finish: () => void; fail: (error: Error) => void }> = [];
  return {
    writes,
    recorder: {
      record: (record: ForwardRecord) => new Promise<void>((finish, fail) => void writes.push({ record, finish, fail })),
    },
  };
}

function forwardWith(
  recorder: { record(record: ForwardRecord): Promise<void> },
  failures: Array<[unknown, ForwardRecord]> = [],
  rules: DestinationRule[] = [ruleFromUrl('test', DESTINATION, true, { catalog: PROCESSOR_DESTINATIONS })],
) {
  const audit = forwardAudit({ recordForward: recorder.record, onRecordFailure: (error, record) => void failures.push([error, record]) });
  const reveals: Array<{ tokenId: string; requestIds: unknown }> = [];
  const sent: DestinationRequest[] = [];
  const forward = forwardRequest({
    cards: {
      async reveal(_merchantId, tokenId, requestIds) {
        reveals.push({ tokenId, requestIds });
        if (tokenId !== 'tok_1') throw new TokenNotFoundError();
        return {
          tokenId,
          number: sensitive('4111111111111111'),
          expMonth: sensitive(3),
          expYear: sensitive(2030),
          securityCode: null,
          securityCodeStatus: 'not_collected',
        };
      },
    },
    destinations: { rulesFor: async () => rules },
    egress: {
      request: async (request: DestinationRequest): Promise<DestinationResponse> => {
        sent.push(request);
        return { status: 201, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":true}'), timings: { totalMs: 1 } };
      },
    },
    audit,
    clock: systemClock,
  });
  return { forward, audit, reveals, sent };
}

const recorded = () => ({ record: async () => undefined });

const command = (tokenId = 'tok_1', { mode = 'test', ...changes }: Partial<ForwardCommand> & { mode?: 'test' | 'live' } = {}): ForwardCommand => ({
  scope: { merchantId: 'mer_a', mode },
  requestId: 'req_1',
  tokenId,
  destinationUrl: DESTINATION,
  format: 'json',
  body: Buffer.from('{"source":{"number":"{{ account_number }}"}}'),
  credentialHeaders: {},
  passThroughHeaders: {},
  ...changes,
});

describe('the forward use case and its record', () => {
  it('when the destination answered, then the merchant gets the answer without waiting for the record, and recordsWritten waits until it is written', async () => {
    const { writes, recorder } = heldWrites();
    const { forward, audit } = forwardWith(recorder);

    const result = await forward(command());

    expect(result.status).toBe(201);
    expect(writes.map((w) => [w.record.outcome, w.record.status])).toEqual([['delivered', 201]]);
    let written = false;
    const allWritten = audit.recordsWritten().then(() => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    writes[0]!.finish();
    await allWritten;
    expect(written).toBe(true);
  });

  it('when the forward is refused, then the error reaches the merchant and the refusal is still recorded', async () => {
    const { writes, recorder } = heldWrites();
    const { forward, audit } = forwardWith(recorder);

    await expect(forward(command('tok_unknown'))).rejects.toBeInstanceOf(TokenNotFoundError);

    expect(writes.map((w) => [w.record.outcome, w.record.errorCode])).toEqual([['rejected', 'token_not_found']]);
    writes[0]!.finish();
    await audit.recordsWritten();
  });

  it('when the record cannot be written, then the failure is reported with the record and recordsWritten still resolves', async () => {
    const { writes, recorder } = heldWrites();
    const failures: Array<[unknown, ForwardRecord]> = [];
    const { forward, audit } = forwardWith(recorder, failures);
    await forward(command());

    const diskFull = new Error('disk full');
    writes[0]!.fail(diskFull);
    await audit.recordsWritten();

    expect(failures).toEqual([[diskFull, writes[0]!.record]]);
  });

  describe('key modes (test keys never reach live PSP endpoints, live keys never test ones)', () => {
    const adyenBody = Buffer.from('{"paymentMethod":{"number":"{{ account_number }}"}}');
    const checkoutBody = Buffer.from('{"source":{"number":"{{ account_number }}"}}');
    const stripeBody = Buffer.from('type=card&card[number]={{ account_number }}');

    it.each([
      ['test', 'https://abc123-checkout-live.adyenpayments.com/checkout/v69/payments', 'destination_not_allowed_in_test_mode', adyenBody],
      ['test', 'https://api.checkout.com/payments', 'destination_not_allowed_in_test_mode', checkoutBody],
      ['test', 'https://pk123.api.checkout.com/payments', 'destination_not_allowed_in_test_mode', checkoutBody],
      ['live', 'https://checkout-test.adyen.com/v69/payments', 'destination_not_allowed_in_live_mode', adyenBody],
      ['live', 'https://api.sandbox.checkout.com/payments', 'destination_not_allowed_in_live_mode', checkoutBody],
      ['live', 'https://pk123.api.sandbox.checkout.com/payments', 'destination_not_allowed_in_live_mode', checkoutBody],
    ] as const)('when a %s key forwards to %s, then it is refused with 403 %s before the token is read or anything is sent', async (mode, url, code, body) => {
      const { forward, reveals, sent } = forwardWith(recorded(), [], [...BUILT_IN_DESTINATIONS]);

      await expect(forward(command('tok_1', { mode, destinationUrl: url, body }))).rejects.toMatchObject({ status: 403, code, field: 'X-DESTINATION-URL' });

      expect(reveals).toEqual([]);
      expect(sent).toEqual([]);
    });

    it.each([
      ['test', 'https://checkout-test.adyen.com/v69/payments', adyenBody, 'json'],
      ['live', 'https://abc123-checkout-live.adyenpayments.com/checkout/v69/payments', adyenBody, 'json'],
      ['test', 'https://api.sandbox.checkout.com/payments', checkoutBody, 'json'],
      ['live', 'https://api.checkout.com/payments', checkoutBody, 'json'],
      ['test', 'https://api.stripe.com/v1/payment_methods', stripeBody, 'form'],
      ['live', 'https://api.stripe.com/v1/payment_methods', stripeBody, 'form'],
    ] as const)('when a %s key forwards to %s, then it is sent', async (mode, url, body, format) => {
      const { forward, sent } = forwardWith(recorded(), [], [...BUILT_IN_DESTINATIONS]);

      await forward(command('tok_1', { mode, destinationUrl: url, body, format }));

      expect(sent.map((request) => request.url)).toEqual([url]);
    });

    it('when an operator destination is unmarked, then both modes may use it; marked live, then a test key is refused', async () => {
      const unmarked = forwardWith(recorded(), [], [ruleFromUrl('extra', DESTINATION, true, { catalog: PROCESSOR_DESTINATIONS })]);
      await unmarked.forward(command('tok_1', { mode: 'test' }));
      await unmarked.forward(command('tok_1', { mode: 'live' }));
      expect(unmarked.sent).toHaveLength(2);

      const live = forwardWith(recorded(), [], [ruleFromUrl('extra', DESTINATION, true, { mode: 'live', catalog: PROCESSOR_DESTINATIONS })]);
      await live.forward(command('tok_1', { mode: 'live' }));
      await expect(live.forward(command('tok_1', { mode: 'test' }))).rejects.toMatchObject({ status: 403, code: 'destination_not_allowed_in_test_mode' });
      expect(live.sent).toHaveLength(1);
    });

    it('when a merchant destination is stored with its own card fields and a mode, then forwarding follows both', async () => {
      const stored: MerchantDestination = {
        id: 'dst_1',
        merchant_id: 'mer_a',
        version: 1,
        url: 'https://psp.example/v3/charge',
        card_fields: { 'card.pan': 'account_number' },
        mode: 'test',
        created_at: '2026-11-23T00:00:00.000Z',
      };
      const directory = destinationDirectory({
        catalog: PROCESSOR_DESTINATIONS,
        operatorRules: [],
        destinations: { list: async () => ({ items: [stored], has_more: false }) },
      });
      const { forward, sent } = forwardWith(recorded(), [], await directory.rulesFor('mer_a'));
      const to = (body: string, mode: 'test' | 'live' = 'test') => forward(command('tok_1', { destinationUrl: stored.url, body: Buffer.from(body), mode }));

      await to('{"card":{"pan":"{{ account_number }}"}}');
      expect(JSON.parse(String(sent[0]!.body))).toEqual({ card: { pan: '4111111111111111' } });
      await expect(to('{"card":{"pan":"{{ account_number }}"},"ref":"{{ account_number }}"}')).rejects.toMatchObject({
        code: 'placeholder_not_allowed',
        field: 'ref',
      });
      await expect(to('{"card":{"pan":"{{ account_number }}"}}', 'live')).rejects.toMatchObject({ code: 'destination_not_allowed_in_live_mode' });
    });
  });

  describe('detokenization', () => {
    it('when the body holds no placeholder, then the token is not read and the body is sent as it came', async () => {
      const { forward, reveals, sent } = forwardWith(recorded());
      const body = Buffer.from('{"source":{"id":"src_123"}, "amount": 100}');

      const result = await forward(command('tok_unknown', { body }));

      expect(result.status).toBe(201);
      expect(reveals).toEqual([]);
      expect(String(sent[0]!.body)).toBe(body.toString());
    });

    it("when the token is read, then the vault gets the forward's own request id, and the client's X-Request-Id only as a separate field", async () => {
      const { writes, recorder } = heldWrites();
      const { forward, reveals } = forwardWith(recorder);

      await forward(command('tok_1', { requestId: 'client-chosen-id' }));

      expect(reveals).toEqual([{ tokenId: 'tok_1', requestIds: { requestId: writes[0]!.record.id, clientRequestId: 'client-chosen-id' } }]);
      writes[0]!.finish();
    });
  });
});
