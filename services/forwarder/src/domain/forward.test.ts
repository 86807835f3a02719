import { sensitive, systemClock } from '@vaultline/core';
import type { EgressRequest, EgressResponse } from '@vaultline/egress';
import { ruleFromUrl } from './destination-policy';
import { forwardAudit, type ForwardRecord } from './forward-record';
import { forwardRequest, type ForwardCommand } from './forward';
import { TokenNotFoundError } from './forward-errors';

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

function forwardWith(recorder: { record(record: ForwardRecord): Promise<void> }, failures: Array<[unknown, ForwardRecord]> = []) {
  const audit = forwardAudit({ recordForward: recorder.record, onRecordFailure: (error, record) => void failures.push([error, record]) });
  const forward = forwardRequest({
    cards: {
      async reveal(_merchantId, tokenId) {
        if (tokenId !== 'tok_1') throw new TokenNotFoundError();
        return { tokenId, number: sensitive('4111111111111111'), expMonth: sensitive(3), expYear: sensitive(2030), securityCode: null, securityCodeStatus: 'not_collected' };
      },
    },
    destinations: { rulesFor: async () => [ruleFromUrl('test', DESTINATION, true)] },
    egress: {
      request: async (_request: EgressRequest): Promise<EgressResponse> => ({ status: 201, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"ok":true}'), timings: { totalMs: 1 } }),
    },
    audit,
    clock: systemClock,
  });
  return { forward, audit };
}

const command = (tokenId = 'tok_1'): ForwardCommand => ({
  merchantId: 'mer_a',
  requestId: 'req_1',
  tokenId,
  destinationUrl: DESTINATION,
  format: 'json',
  body: Buffer.from('{"source":{"number":"{{ account_number }}"}}'),
  credentialHeaders: {},
  passThroughHeaders: {},
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
});
