import { isLuhnValid } from '@vaultline/core';
import { CARDS, MERCHANT, recurring, startOrchestrator, type Harness } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

const COLLECTIONS = ['payments', 'payment_schedule', 'processor_transactions', 'stored_credentials', 'flows', 'flow_matrices'];

/** Every run of 13–19 digits that passes the Luhn check: what a card number looks like. */
function cardNumbersIn(text: string): string[] {
  return (text.match(/\d{13,19}/g) ?? []).filter((digits) => isLuhnValid(digits));
}

describe('the orchestrator holds no card data', () => {
  it('when payments of every kind ran, then no stored document, event or answer carries a card number', async () => {
    const answers: string[] = [];
    for (const masked of Object.values(CARDS)) answers.push(JSON.stringify(await h.payOneOff(MERCHANT, masked)));
    const initial = await h.payOneOff(MERCHANT, CARDS.approved, recurring(), '/payments/recurring');
    await h.advance(200);
    answers.push(
      JSON.stringify(
        (
          await h.call(
            MERCHANT,
            'POST',
            `/payments/recurring/${initial.id}/subsequent`,
            { amount: 100, currency_code: 'EUR' },
            { 'x-test-now': '2026-07-02T10:00:00Z' },
          )
        ).body,
      ),
    );
    await h.settle();
    await h.advance(200);

    const stored: string[] = [];
    for (const name of COLLECTIONS) stored.push(JSON.stringify((await h.store.collection(name).listAcrossMerchants({}, { limit: 1_000 })).items));
    expect(stored.join('').length).toBeGreaterThan(1_000);
    expect(h.events.length).toBeGreaterThan(10);
    expect(cardNumbersIn([...stored, ...answers, JSON.stringify(h.events)].join('\n'))).toEqual([]);
    // The scan itself finds a card number where there is one.
    expect(cardNumbersIn('{"n":"4000000000000002"}')).toEqual(['4000000000000002']);
  });
});
