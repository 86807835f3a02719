import fc from 'fast-check';
import { newId } from '@vaultline/core';
import { adyenNotification } from '../src/processors/adyen/dev/adyen.stand-in';
import { NOTIFICATION_HMAC_KEY } from './support/notification-accounts';
import { CARDS, MERCHANT, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

/**
 * Random interleavings of creates, session completions (with duplicate deliveries), processor outcomes
 * (by card, the 3-D Secure challenge cards included), consumers coming back from their bank (once or
 * twice, completed or failed, before or after the bank asked, or never), captures, cancels, refunds,
 * chargeback notifications (with duplicate deliveries), test disputes and the passing of time
 * (authorizations and sessions expiring too), run concurrently, checked against a model of the state
 * machine written here independently of the service's own table. The simulator confirms voids at once,
 * so no canceling shows here. payment.action_required and payment.attempt_failed are no moves: the payment stays processing.
 */
const MODEL_MOVES: Record<string, string[]> = {
  none: ['processing'],
  processing: ['authorized', 'captured', 'failed', 'canceled'],
  authorized: ['capturing', 'canceled'],
  // A non-final capture settled (partially_captured), the final one (captured), or the capture failed (back).
  capturing: ['captured', 'partially_captured', 'authorized'],
  // Another capture, or the rest released (cancel, expiry): captured with what was captured.
  partially_captured: ['capturing', 'captured'],
  captured: [],
  failed: [],
  canceled: [],
};

/** The event a move publishes: payment.<status>, except a settled non-final capture (payment.captured) and a failed capture (payment.capture_failed). */
function eventOfMove(from: string, to: string): string[] {
  if (to === 'partially_captured') return from === 'capturing' ? ['payment.captured', 'payment.capture_failed'] : [];
  if (to === 'authorized' && from === 'capturing') return ['payment.capture_failed'];
  return [`payment.${to}`];
}

const SEVEN_DAYS_MS = 604_800_000;

type Command =
  | { kind: 'create'; path: '/payments/one-off' | '/payments/unscheduled' | '/payments/recurring'; manual: boolean; amount: number }
  | { kind: 'complete'; target: number; card: keyof typeof CARDS; deliveries: number; distinctEvents: boolean }
  | { kind: 'return'; target: number; outcome: 'completed' | 'failed'; times: 1 | 2 }
  | { kind: 'capture'; target: number; amount: 'full' | 'partial' | 'over' | 'other-currency'; final: boolean }
  | { kind: 'cancel'; target: number }
  | { kind: 'refund'; target: number; amount: 'rest' | 'partial' | 'over' | 'other-currency' }
  | { kind: 'time'; ms: number }
  | { kind: 'chargeback'; target: number; stage: number; deliveries: number }
  | { kind: 'test-dispute'; target: number; status: 'needs_response' | 'under_review' | 'won' | 'lost' };
/** Adyen's dispute events used here, one per stage, so a dispute's outcome does not depend on arrival order: the highest stage delivered decides. */
const CHARGEBACK_STAGES = [
  { code: 'NOTIFICATION_OF_CHARGEBACK', disputeStatus: 'Undefended', status: 'needs_response' },
  { code: 'CHARGEBACK', disputeStatus: 'Pending', status: 'under_review' },
  { code: 'CHARGEBACK_REVERSED', disputeStatus: 'Won', status: 'won' },
  { code: 'SECOND_CHARGEBACK', disputeStatus: 'Lost', status: 'lost' },
  { code: 'PREARBITRATION_WON', disputeStatus: 'Won', status: 'won' },
] as const;

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    path: fc.constantFrom('/payments/one-off' as const, '/payments/unscheduled' as const, '/payments/recurring' as const),
    manual: fc.boolean(),
    amount: fc.integer({ min: 1, max: 100_000 }),
  }),
  fc.record({
    kind: fc.constant('complete' as const),
    target: fc.nat(),
    card: fc.constantFrom(...(Object.keys(CARDS) as Array<keyof typeof CARDS>)),
    deliveries: fc.integer({ min: 1, max: 3 }),
    distinctEvents: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('return' as const),
    target: fc.nat(),
    outcome: fc.constantFrom('completed' as const, 'failed' as const),
    times: fc.constantFrom(1 as const, 2 as const),
  }),
  fc.record({
    kind: fc.constant('capture' as const),
    target: fc.nat(),
    amount: fc.constantFrom('full' as const, 'partial' as const, 'over' as const, 'other-currency' as const),
    final: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('cancel' as const), target: fc.nat() }),
  fc.record({
    kind: fc.constant('refund' as const),
    target: fc.nat(),
    amount: fc.constantFrom('rest' as const, 'partial' as const, 'over' as const, 'other-currency' as const),
  }),
  fc.record({ kind: fc.constant('time' as const), ms: fc.constantFrom(0, 100, 200, 1_000, 31 * 60_000, SEVEN_DAYS_MS) }),
  fc.record({
    kind: fc.constant('chargeback' as const),
    target: fc.nat(),
    stage: fc.integer({ min: 0, max: CHARGEBACK_STAGES.length - 1 }),
    deliveries: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('test-dispute' as const),
    target: fc.nat(),
    status: fc.constantFrom('needs_response' as const, 'under_review' as const, 'won' as const, 'lost' as const),
  }),
);

interface Tracked {
  id: string;
  body: Json;
  requested: number;
  captureAccepted: number;
  /** The chargeback stages delivered (each possibly several times). */
  chargebackStages: Set<number>;
  cancelAccepted: number;
  refundsCreated: number;
  /** Times the consumer came back from the bank (counted whether or not the payment was waiting). */
  returns: number;
}

/** The dispute's reference at Adyen for a tracked payment (letters only, as Adyen's). */
const disputePsp = (paymentId: string) => `DSP${[...paymentId.replace(/-/g, '')].map((c) => String.fromCharCode(65 + parseInt(c, 16))).join('')}`;

async function execute(h: Harness, adyenAccount: string, payments: Tracked[], cmd: Command): Promise<void> {
  switch (cmd.kind) {
    case 'create': {
      const body: Record<string, unknown> = {
        amount: cmd.amount,
        currency_code: 'EUR',
        reference: cmd.manual ? `manual-${cmd.amount}` : `auto-${cmd.amount}`,
        source: { type: 'vaultline' },
      };
      if (cmd.path === '/payments/recurring') Object.assign(body, { recurring_frequency: 30, recurring_expiry: '20301231' });
      const answer = await h.call(MERCHANT, 'POST', cmd.path, body);
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('processing');
      payments.push({
        id: answer.body.id,
        body: answer.body,
        requested: cmd.amount,
        captureAccepted: 0,
        cancelAccepted: 0,
        refundsCreated: 0,
        chargebackStages: new Set(),
        returns: 0,
      });
      return;
    }
    case 'complete': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const eventId = newId();
      const data = await h.submitCard(target.body, CARDS[cmd.card], { eventId });
      for (let i = 1; i < cmd.deliveries; i++) await h.redeliver(data, MERCHANT.merchantId, cmd.distinctEvents ? newId() : eventId);
      return;
    }
    case 'return': {
      // The consumer leaves for the bank and comes back (twice: a reload of the return address, the back button).
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      for (let i = 0; i < cmd.times; i++) {
        await h.returnFromBank(target.body, { simulator_challenge: i === 0 ? cmd.outcome : 'completed' });
        target.returns++;
      }
      return;
    }
    case 'capture': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const amount =
        cmd.amount === 'full'
          ? { reference: 'c' }
          : cmd.amount === 'partial'
            ? { amount: Math.max(1, Math.floor(target.requested / 4)), currency_code: 'EUR' }
            : cmd.amount === 'over'
              ? { amount: target.requested + 1, currency_code: 'EUR' }
              : { amount: 1, currency_code: 'USD' };
      const body = { ...amount, final_capture: cmd.final };
      const answer = await h.call(MERCHANT, 'POST', `/payments/${target.id}/capture`, body);
      if (answer.status === 200) {
        expect(answer.body.status).toBe('capturing');
        target.captureAccepted++;
      } else {
        expect([404, 409, 422]).toContain(answer.status);
        expect(['capture_not_allowed', 'already_captured', 'amount_exceeds_authorized', 'currency_mismatch']).toContain(answer.body.code);
        if (cmd.amount === 'over') expect(['capture_not_allowed', 'already_captured', 'amount_exceeds_authorized']).toContain(answer.body.code);
      }
      return;
    }
    case 'cancel': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const answer = await h.call(MERCHANT, 'POST', `/payments/${target.id}/cancel`);
      if (answer.status === 200) {
        // After partial captures a cancel releases the rest: the payment ends captured with what was captured.
        if (answer.body.status === 'captured') expect(answer.body.amount.captured).toBeGreaterThan(0);
        else expect(answer.body).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
        target.cancelAccepted++;
      } else {
        expect([answer.status, answer.body.code]).toEqual([409, 'cancel_not_allowed']);
      }
      return;
    }
    case 'refund': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const body =
        cmd.amount === 'rest'
          ? {}
          : cmd.amount === 'partial'
            ? { amount: Math.max(1, Math.floor(target.requested / 3)) }
            : cmd.amount === 'over'
              ? { amount: target.requested + 1 }
              : { amount: 1, currency_code: 'USD' };
      const answer = await h.call(MERCHANT, 'POST', `/payments/${target.id}/refunds`, body);
      if (answer.status === 201) {
        expect(cmd.amount).not.toBe('over');
        expect(answer.body).toMatchObject({ status: 'pending', payment_id: target.id });
        target.refundsCreated++;
      } else {
        expect(['refund_not_allowed', 'amount_exceeds_refundable', 'currency_mismatch', 'payment_disputed']).toContain(answer.body.code);
      }
      return;
    }
    case 'time':
      await h.advance(cmd.ms);
      return;
    case 'chargeback': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const stage = CHARGEBACK_STAGES[cmd.stage]!;
      const notification = adyenNotification(
        {
          amount: { value: target.requested, currency: 'EUR' },
          eventCode: stage.code,
          eventDate: '2026-06-02T10:00:00+02:00',
          merchantAccountCode: 'ShopECOM',
          merchantReference: target.id,
          originalReference: 'AUTHPSP',
          pspReference: disputePsp(target.id),
          reason: 'Fraud',
          success: 'true',
        },
        NOTIFICATION_HMAC_KEY,
      );
      (notification.notificationItems[0]!.NotificationRequestItem.additionalData as Record<string, string>).disputeStatus = stage.disputeStatus;
      target.chargebackStages.add(cmd.stage);
      for (let i = 0; i < cmd.deliveries; i++)
        expect((await h.postPublic(`/processor-notifications/adyen/${adyenAccount}`, JSON.stringify(notification))).text).toBe('[accepted]');
      return;
    }
    case 'test-dispute': {
      const target = payments[cmd.target % Math.max(1, payments.length)];
      if (!target) return;
      const answer = await h.call(MERCHANT, 'POST', `/payments/${target.id}/test/dispute`, { status: cmd.status });
      if (answer.status !== 200) expect([answer.status, answer.body.code]).toEqual([409, 'dispute_not_allowed']);
      return;
    }
  }
}

/** A dispute's events replay its life: created first, then one event per change of status, closed exactly for won and lost. */
function expectDisputeEventsReplay(events: Json[], dispute: Json): void {
  expect(events[0].type).toBe('dispute.created');
  let status: string | null = null;
  for (const [index, event] of events.entries()) {
    const created = index === 0;
    const closedRightAfterCreated = index === 1 && events[0].data.status === event.data.status && event.type === 'dispute.closed';
    if (!created && !closedRightAfterCreated) expect(event.data.status).not.toBe(status);
    if (!created) expect(event.type).toBe(['won', 'lost'].includes(event.data.status) ? 'dispute.closed' : 'dispute.updated');
    status = event.data.status;
  }
  expect(status).toBe(dispute.status);
}

describe('the payment state machine under random concurrent interleavings', () => {
  it('when commands run in concurrent batches, then no move is illegal, captured ≤ authorized ≤ requested, captures adding up to amount.captured, refunds never above captured, expired authorizations canceled, and every committed move has exactly one event', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(command, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        const h = await startOrchestrator();
        try {
          await h.call(MERCHANT, 'PUT', '/flow-matrix', {
            rules: [{ name: 'manual', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
          });
          const adyen = await h.call(MERCHANT, 'POST', '/processor-accounts', {
            processor: 'adyen',
            name: 'Adyen',
            credentials: { api_key: 'AQE_key_value_1234', merchant_account: 'ShopECOM', hmac_key: NOTIFICATION_HMAC_KEY },
          });
          const payments: Tracked[] = [];
          for (const batch of batches) {
            await Promise.all(batch.map((cmd) => execute(h, adyen.body.id, payments, cmd)));
            await h.settle();
          }
          await h.advance(60 * 60_000);
          await h.advance(1_000);
          // Past every authorization's validity: none is left authorized.
          await h.advance(SEVEN_DAYS_MS);

          for (const tracked of payments) {
            const payment = (await h.call(MERCHANT, 'GET', `/payments/${tracked.id}`)).body;
            const ofPayment = h.events.filter((e) => e.type.startsWith('payment.') && e.data.payment_id === tracked.id);
            // payment.action_required and payment.attempt_failed (a card declined on the hosted page, another awaited) are no moves: the payment stays processing.
            const moves = ofPayment.filter((e) => e.type !== 'payment.action_required' && e.type !== 'payment.attempt_failed');
            for (const event of ofPayment.filter((e) => e.type === 'payment.attempt_failed')) expect(event.data.status).toBe('processing');
            // The bank asks at most once per payment here (the simulator challenges once), always while processing.
            const asked = ofPayment.filter((e) => e.type === 'payment.action_required');
            expect(asked.length).toBeLessThanOrEqual(1);
            for (const event of asked) expect(event.data.status).toBe('processing');
            if (asked.length > 0) expect(ofPayment.indexOf(asked[0]!)).toBeGreaterThan(ofPayment.findIndex((e) => e.type === 'payment.processing'));
            // Every committed move exactly one event: the events replay a legal path that ends in the stored status.
            let state = 'none';
            for (const event of moves) {
              expect(MODEL_MOVES[state]).toContain(event.data.status);
              expect(eventOfMove(state, event.data.status)).toContain(event.type);
              state = event.data.status;
            }
            expect(state).toBe(payment.status);
            expect(new Set(moves.map((e) => e.id)).size).toBe(moves.length);

            const { requested, authorized, captured } = payment.amount;
            expect(requested).toBe(tracked.requested);
            if (authorized !== undefined) expect(authorized).toBeLessThanOrEqual(requested);
            if (captured !== undefined) expect(captured).toBeLessThanOrEqual(authorized);

            const transactions = (await h.call(MERCHANT, 'GET', `/payments/${tracked.id}/transactions`)).body.data as Json[];
            // 3-D Secure: an authentication that failed, or a consumer who never came back, leaves no authorization;
            // whoever the bank asked and never saw again is abandoned once the session expired.
            expect(transactions.filter((t) => t.kind === 'authentication_3ds').length).toBeLessThanOrEqual(1);
            if (['authentication_failed', 'authentication_abandoned'].includes(payment.failure_reason))
              expect(transactions.filter((t) => t.kind === 'authorization')).toEqual([]);
            if (payment.failure_reason === 'authentication_abandoned') expect(asked.length).toBe(1);
            if (asked.length > 0 && tracked.returns === 0) expect(payment).toMatchObject({ status: 'failed', failure_reason: 'authentication_abandoned' });
            expect(payment).not.toHaveProperty('next_action');
            // Every capture is a transaction; the settled ones add up to amount.captured.
            const captures = transactions.filter((t) => t.kind === 'capture');
            expect(captures.length).toBeLessThanOrEqual(payment.flow === 'simulator_manual_capture' ? tracked.captureAccepted : 1);
            expect(captures.filter((t) => t.status === 'succeeded').reduce((total, t) => total + t.amount, 0)).toBe(captured ?? 0);
            expect(transactions.filter((t) => t.kind === 'authorization').length).toBeLessThanOrEqual(1);
            // A failed capture leaves the authorization: captured later, canceled, or expired; never a failed payment.
            if (tracked.captureAccepted > 0) expect(['captured', 'canceled']).toContain(payment.status);
            // Nothing is left half-way once time has passed: authorizations past their validity are released.
            expect(['captured', 'failed', 'canceled']).toContain(payment.status);
            expect(payment.amount.capturable ?? 0).toBe(0);
            if (tracked.cancelAccepted > 0 && payment.status !== 'captured')
              expect(payment).toMatchObject({ status: 'canceled', cancellation_reason: 'requested_by_merchant' });
            if (payment.status === 'canceled' && tracked.cancelAccepted === 0)
              expect(payment).toMatchObject({ cancellation_reason: 'authorization_expired', flow: 'simulator_manual_capture' });
            expect(transactions.filter((t) => t.kind === 'void').length).toBeLessThanOrEqual(1);

            // Refunds: only of captured payments, never above the captured amount, each settled once.
            const refunds = (await h.call(MERCHANT, 'GET', `/payments/${tracked.id}/refunds`)).body.data as Json[];
            expect(refunds).toHaveLength(tracked.refundsCreated);
            if (refunds.length > 0) expect(payment.status).toBe('captured');
            const sum = (status: string) => refunds.filter((r) => r.status === status).reduce((total, r) => total + r.amount, 0);
            expect(refunds.filter((r) => r.status === 'pending')).toEqual([]);
            expect(sum('succeeded')).toBeLessThanOrEqual(captured ?? 0);
            expect(payment.amount.refunded ?? 0).toBe(sum('succeeded'));
            for (const refund of refunds) {
              const refundMoves = h.events.filter((e) => e.type.startsWith('refund.') && e.data.refund_id === refund.id).map((e) => e.type);
              expect(refundMoves).toEqual(['refund.created', `refund.${refund.status}`]);
            }

            // Disputes: one per processor reference, whatever the duplicates; each one's events replay its life.
            const disputes = (await h.call(MERCHANT, 'GET', `/payments/${tracked.id}/disputes?limit=100`)).body.data as Json[];
            expect(new Set(disputes.map((d) => d.processor_reference)).size).toBe(disputes.length);
            for (const dispute of disputes)
              expectDisputeEventsReplay(
                h.events.filter((e) => e.type.startsWith('dispute.') && e.data.dispute_id === dispute.id),
                dispute,
              );
            // The Adyen account handled none of these payments (the simulator did): its chargebacks open nothing on them,
            // however many arrive (the stage order of Adyen's notifications is tested on Adyen's own payments, disputes.test.ts).
            expect(disputes.find((d) => d.processor_reference === disputePsp(tracked.id))).toBeUndefined();
            if (disputes.some((d) => d.processor_reference.startsWith('sim_dp_'))) expect(payment.status).toBe('captured');
            // The books: what open or lost chargebacks hold, and what the merchant keeps.
            if (payment.amount.captured !== undefined) {
              const held = disputes.filter((d) => d.kind === 'chargeback' && d.status !== 'won').reduce((total, d) => total + d.amount, 0);
              expect([payment.amount.disputed, payment.amount.net]).toEqual([held, payment.amount.captured - (payment.amount.refunded ?? 0) - held]);
            }
          }
        } finally {
          await h.stop();
        }
      }),
      { numRuns: 25 },
    );
  });
});
