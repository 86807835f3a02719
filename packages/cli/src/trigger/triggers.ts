import type { MerchantComponents, Vaultline } from '@vaultline/node';

type AnyPayment = MerchantComponents['schemas']['AnyPayment'];

/** The simulator's test cards a trigger pays with (the guides list every one). */
export const TRIGGER_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  challenge: '4000000000003063',
  refundFails: '4000000000005126',
  captureFailsOnce: '4000000000000267',
  fraudWarning: '4000000000005423',
} as const;

/** The flow-matrix rule the manual-capture triggers add once to the TEST matrix (its reference prefix is theirs alone). */
export const MANUAL_CAPTURE_RULE = {
  name: 'vaultline trigger: manual capture',
  when: { reference_prefix: 'vaultline-trigger-manual-' },
  flow: 'simulator_manual_capture',
} as const;

/** What a trigger did: the objects it made, by name, and the id the event it causes is about. */
export interface Triggered {
  created: Array<[string, string]>;
  /** An id that appears in the event's data (payment_id, token_id, refund_id, dispute_id…), to find the event by. */
  subject: string;
}

export interface Trigger {
  /** How the event is caused, for `vaultline trigger --help`. */
  how: string;
  run(api: TriggerApi): Promise<Triggered>;
}

/** The calls triggers make, on a test key (checked by the command). */
export class TriggerApi {
  constructor(
    readonly vaultline: Vaultline,
    private readonly waitMs = 30_000,
  ) {}

  /** A one-off payment (its checkout session opens). */
  async payment(reference: string): Promise<AnyPayment> {
    return this.vaultline.post('/payments/one-off', {
      body: { amount: 2500, currency_code: 'EUR', reference: `${reference}-${Date.now()}`, source: { type: 'vaultline' }, description: 'vaultline trigger' },
    });
  }

  /** Plays the consumer: the card entered on the payment's checkout session, as the hosted page posts it. */
  async pay(payment: AnyPayment, card: string): Promise<void> {
    const sessionId = payment.action_requirement?.session_id;
    if (!sessionId) throw new Error(`payment ${payment.id} has no checkout session`);
    // The session reaches the vault by event just after the payment was created: wait until it is known.
    await this.until(async () => {
      try {
        return (await this.vaultline.get('/sessions/{session_id}/status', { params: { path: { session_id: sessionId } } })) ?? null;
      } catch {
        return null;
      }
    }, `the checkout session of payment ${payment.id}`);
    await this.vaultline.post('/sessions/{session_id}/card', {
      params: { path: { session_id: sessionId } },
      body: { card: { number: card, exp_month: 12, exp_year: new Date().getUTCFullYear() + 5, cvc: '123', name: 'Vaultline Trigger' } },
    });
  }

  async paymentIn(id: string, statuses: string[]): Promise<AnyPayment> {
    return this.until(
      async () => {
        const payment = await this.vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: id } } });
        return statuses.includes(payment.status) ? payment : null;
      },
      `payment ${id} to be ${statuses.join(' or ')}`,
    );
  }

  /** A captured payment: paid with `card`; captured by the flow, or here when the test flow matrix chose a manual-capture flow. */
  async capturedPayment(card: string = TRIGGER_CARDS.approved): Promise<AnyPayment> {
    const payment = await this.payment('vaultline-trigger');
    await this.pay(payment, card);
    const reached = await this.paymentIn(payment.id, ['captured', 'authorized', 'failed']);
    if (reached.status === 'failed') throw new Error(`payment ${payment.id} failed (${reached.failure_reason ?? 'no reason'})`);
    if (reached.status === 'authorized')
      await this.vaultline.post('/payments/{payment_id}/capture', { params: { path: { payment_id: payment.id } }, body: {} });
    return this.paymentIn(payment.id, ['captured']);
  }

  /** An authorized payment of a manual-capture flow (the trigger's rule in the test flow matrix, added once). */
  async authorizedPayment(card: string = TRIGGER_CARDS.approved): Promise<AnyPayment> {
    const matrix = await this.vaultline.get('/flow-matrix');
    if (!matrix.rules.some((rule) => rule.name === MANUAL_CAPTURE_RULE.name)) {
      await this.vaultline.put('/flow-matrix', {
        body: { default_flow: matrix.default_flow, rules: [MANUAL_CAPTURE_RULE, ...matrix.rules.map(({ name, when, flow }) => ({ name, when, flow }))] },
      });
      process.stderr.write(
        `Added the rule "${MANUAL_CAPTURE_RULE.name}" (reference prefix ${MANUAL_CAPTURE_RULE.when.reference_prefix} -> ${MANUAL_CAPTURE_RULE.flow}) to the test flow matrix, once.\n`,
      );
    }
    const payment = await this.payment(MANUAL_CAPTURE_RULE.when.reference_prefix.replace(/-$/, ''));
    await this.pay(payment, card);
    return this.paymentIn(payment.id, ['authorized']);
  }

  async token(): Promise<string> {
    return (
      await this.vaultline.post('/tokens', {
        body: { card: { number: TRIGGER_CARDS.approved, exp_month: 12, exp_year: new Date().getUTCFullYear() + 5, cvc: '123', name: 'Vaultline Trigger' } },
      })
    ).id;
  }

  async refund(paymentId: string): Promise<string> {
    return (await this.vaultline.post('/payments/{payment_id}/refunds', { params: { path: { payment_id: paymentId } }, body: {} })).id;
  }

  async dispute(paymentId: string, status?: 'needs_response' | 'under_review' | 'won' | 'lost'): Promise<string> {
    return (await this.vaultline.post('/payments/{payment_id}/test/dispute', { params: { path: { payment_id: paymentId } }, body: status ? { status } : {} }))
      .id;
  }

  /** Asks `check` every 200 ms until it answers something, for at most the wait. */
  async until<T>(check: () => Promise<T | null>, what: string): Promise<T> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const found = await check();
      if (found !== null && found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${this.waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const paid =
  (card: string) =>
  async (api: TriggerApi): Promise<Triggered> => {
    const payment = await api.payment('vaultline-trigger');
    await api.pay(payment, card);
    return { created: [['payment', payment.id]], subject: payment.id };
  };

/** A declined card, then the consumer leaves the hosted page ("Return to the shop"): the payment fails with the card's reason. */
const declinedThenAbandoned = async (api: TriggerApi): Promise<Triggered> => {
  const payment = await api.payment('vaultline-trigger');
  await api.pay(payment, TRIGGER_CARDS.declined);
  // A declined card leaves the session open for another one: wait until the attempt is recorded, then leave.
  await api.until(async () => {
    const current = await api.vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: payment.id } } });
    return 'last_failed_attempt' in current && current.last_failed_attempt ? current : null;
  }, `the declined card on payment ${payment.id}`);
  await api.vaultline.post('/sessions/{session_id}/abandon', { params: { path: { session_id: payment.action_requirement!.session_id } } });
  return { created: [['payment', payment.id]], subject: payment.id };
};

const refunded =
  (card: string) =>
  async (api: TriggerApi): Promise<Triggered> => {
    const payment = await api.capturedPayment(card);
    const refund = await api.refund(payment.id);
    return {
      created: [
        ['payment', payment.id],
        ['refund', refund],
      ],
      subject: refund,
    };
  };

const disputed =
  (statuses: Array<'under_review' | 'won'>) =>
  async (api: TriggerApi): Promise<Triggered> => {
    const payment = await api.capturedPayment();
    const dispute = await api.dispute(payment.id);
    for (const status of statuses) await api.dispute(payment.id, status);
    return {
      created: [
        ['payment', payment.id],
        ['dispute', dispute],
      ],
      subject: dispute,
    };
  };

/**
 * Every event `vaultline trigger` can cause, with the test objects it makes (test keys only). Not here:
 * import.started, import.completed, import.failed (they need an account at an import platform:
 * `vaultline imports start`), and the internal token.detokenized and checkout.session.returned.
 */
export const TRIGGERS: Record<string, Trigger> = {
  'token.created': {
    how: 'creates a token of the test card 4242 4242 4242 4242',
    run: async (api) => {
      const token = await api.token();
      return { created: [['token', token]], subject: token };
    },
  },
  'token.deleted': {
    how: 'creates a token, then deletes it',
    run: async (api) => {
      const token = await api.token();
      await api.vaultline.delete('/tokens/{token_id}', { params: { path: { token_id: token } } });
      return { created: [['token (deleted)', token]], subject: token };
    },
  },
  'checkout.session.opened': {
    how: 'creates a one-off payment (its checkout session opens)',
    run: async (api) => {
      const payment = await api.payment('vaultline-trigger');
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'payment.processing': {
    how: 'creates a one-off payment',
    run: async (api) => {
      const payment = await api.payment('vaultline-trigger');
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'checkout.session.completed': { how: 'creates a payment and pays it with 4242 4242 4242 4242', run: paid(TRIGGER_CARDS.approved) },
  'payment.action_required': {
    how: 'creates a payment and pays it with the 3-D Secure challenge card 4000 0000 0000 3063',
    run: paid(TRIGGER_CARDS.challenge),
  },
  'payment.attempt_failed': {
    how: 'creates a payment and pays it with the declined card 4000 0000 0000 0002 (the hosted page offers another card)',
    run: paid(TRIGGER_CARDS.declined),
  },
  'payment.failed': {
    how: 'creates a payment, pays it with the declined card 4000 0000 0000 0002, then leaves the hosted page (POST /sessions/{id}/abandon)',
    run: declinedThenAbandoned,
  },
  'payment.captured': {
    how: 'creates a payment, pays it with 4242 4242 4242 4242 and captures it if its flow does not',
    run: async (api) => {
      const payment = await api.capturedPayment();
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'payment.authorized': {
    how: 'creates a payment of a manual-capture flow and pays it (adds the rule "vaultline trigger: manual capture" to the test flow matrix once)',
    run: async (api) => {
      const payment = await api.authorizedPayment();
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'payment.capturing': {
    how: 'as payment.authorized, then captures it',
    run: async (api) => {
      const payment = await api.authorizedPayment();
      await api.vaultline.post('/payments/{payment_id}/capture', { params: { path: { payment_id: payment.id } }, body: {} });
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'payment.capture_failed': {
    how: 'as payment.authorized with 4000 0000 0000 0267 (its first capture fails), then captures it: the payment is authorized again',
    run: async (api) => {
      const payment = await api.authorizedPayment(TRIGGER_CARDS.captureFailsOnce);
      await api.vaultline.post('/payments/{payment_id}/capture', { params: { path: { payment_id: payment.id } }, body: {} });
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'payment.canceled': {
    how: 'creates a payment and cancels it before a card is entered',
    run: async (api) => {
      const payment = await api.payment('vaultline-trigger');
      await api.vaultline.post('/payments/{payment_id}/cancel', { params: { path: { payment_id: payment.id } }, body: {} });
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'refund.created': { how: 'captures a payment (4242 4242 4242 4242), then refunds it', run: refunded(TRIGGER_CARDS.approved) },
  'refund.succeeded': { how: 'captures a payment (4242 4242 4242 4242), then refunds it', run: refunded(TRIGGER_CARDS.approved) },
  'refund.failed': { how: 'captures a payment with 4000 0000 0000 5126 (its refunds fail), then refunds it', run: refunded(TRIGGER_CARDS.refundFails) },
  'dispute.created': { how: 'captures a payment, then opens a simulated dispute on it (POST /payments/{id}/test/dispute)', run: disputed([]) },
  'dispute.updated': { how: 'as dispute.created, then moves the dispute to under_review', run: disputed(['under_review']) },
  'dispute.closed': { how: 'as dispute.created, then moves it to under_review and won', run: disputed(['under_review', 'won']) },
  'early_fraud_warning.created': {
    how: 'captures a payment paid with 4000 0000 0000 5423: the issuer reports it as made with a stolen card (no dispute yet)',
    run: async (api) => {
      const payment = await api.capturedPayment(TRIGGER_CARDS.fraudWarning);
      return { created: [['payment', payment.id]], subject: payment.id };
    },
  },
  'forward.completed': {
    how: 'creates a token, then forwards a request to a destination no merchant may use (refused before sending: nothing leaves the service)',
    run: async (api) => {
      const token = await api.token();
      await api.vaultline
        .request('POST', '/forward', {
          body: { note: 'vaultline trigger' },
          headers: { 'X-SERVICE-TOKEN': token, 'X-DESTINATION-URL': 'https://trigger.vaultline.invalid/v1/forward' },
        })
        .catch(() => undefined); // 403 destination_not_allowed: the forward is recorded and announced all the same
      return { created: [['token', token]], subject: token };
    },
  },
};
