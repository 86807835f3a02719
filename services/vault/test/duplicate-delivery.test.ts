import { eventMessage } from '@vaultline/bus';
import { endStateOf, expectSameEndStateUnderRedelivery } from '@vaultline/bus/testing';
import { checkoutSessionOpenedV1 } from '@vaultline/contracts';
import { ManualClock, newId } from '@vaultline/core';
import { MemoryDocumentStore } from '@vaultline/store';
import { COLLECTIONS } from '../src/data/collections';
import { paymentStatusMessage } from './checkout-helpers';
import { MERCHANT_SCOPE, startVault } from './vault-harness';

const START = new Date('2026-03-01T10:00:00.000Z');

function sessionOpened(sessionId: string, paymentId: string) {
  return eventMessage(checkoutSessionOpenedV1, {
    scope: MERCHANT_SCOPE,
    data: {
      session_id: sessionId,
      payment_id: paymentId,
      amount: 1999,
      currency: 'EUR',
      expires_at: new Date(START.getTime() + 30 * 60_000).toISOString(),
      return_url: 'https://shop.example/return',
    },
  });
}

describe("the vault's checkout-events consumer under duplicate and reordered delivery", () => {
  it('when every checkout.session.opened and payment.* event arrives two or three times, some after later ones, then the sessions end as with single delivery', async () => {
    const [captured, failed, untouched] = [0, 1, 2].map(() => ({ session: newId(), payment: newId() }));
    const messages = [
      ...[captured!, failed!, untouched!].map((s) => sessionOpened(s.session, s.payment)),
      ...(['processing', 'authorized', 'capturing', 'captured'] as const).map((status) => paymentStatusMessage(captured!.payment, status, START)),
      ...(['processing', 'failed'] as const).map((status) => paymentStatusMessage(failed!.payment, status, START)),
    ];

    const report = await expectSameEndStateUnderRedelivery({
      messages,
      start: async (bus) => {
        const vault = await startVault({ bus, store: new MemoryDocumentStore(), clock: new ManualClock(START) });
        return {
          endState: (published) => endStateOf(vault.runtime.store, [COLLECTIONS.checkoutSessions], { published, given: messages }),
          stop: () => vault.stop(),
        };
      },
    });

    expect(report.stats.redelivered).toBeGreaterThanOrEqual(messages.length);
    console.log(`duplicate delivery (vault checkout-events): ${report.summary}`);
  });
});
