import { CARDS, LIVE_MERCHANT, MERCHANT, OTHER_MERCHANT, oneOff, startOrchestrator, type Harness, type Json } from './support/orchestrator-harness';

let h: Harness;
beforeEach(async () => {
  h = await startOrchestrator();
});
afterEach(async () => {
  await h.stop();
});

const riskyFlow = {
  name: 'risk-then-manual',
  capture_mode: 'manual',
  steps: [
    { kind: 'risk', processor: 'simulator', on_failure: 'stop' },
    { kind: 'authentication_3ri', processor: 'simulator', on_failure: 'continue' },
    { kind: 'authorization', processor: 'simulator' },
    { kind: 'capture', processor: 'simulator' },
  ],
};

describe('flows', () => {
  it('when a merchant lists flows, then the built-in simulator_auto_capture and simulator_manual_capture are there', async () => {
    const answer = await h.call(MERCHANT, 'GET', '/flows');
    expect(answer.body.data.map((f: Json) => [f.name, f.capture_mode, f.built_in])).toEqual([
      ['simulator_auto_capture', 'automatic', true],
      ['simulator_manual_capture', 'manual', true],
    ]);
    expect(answer.body.data[0].steps.map((s: Json) => s.kind)).toEqual(['authentication_3ri', 'authorization', 'capture']);
  });

  it('when a merchant defines a flow, then it answers 201, GET /flows/{name} returns it, and other merchants do not see it', async () => {
    const created = await h.call(MERCHANT, 'POST', '/flows', riskyFlow);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'risk-then-manual', capture_mode: 'manual', built_in: false });
    expect(created.body.steps[2]).toEqual({ kind: 'authorization', processor: 'simulator', on_failure: 'stop', fallback: [], three_ds: 'if_required' });
    expect((await h.call(MERCHANT, 'GET', '/flows/risk-then-manual')).body.name).toBe('risk-then-manual');
    expect((await h.call(OTHER_MERCHANT, 'GET', '/flows/risk-then-manual')).status).toBe(404);
  });

  it('when a flow with the same name exists (or a built-in name is used), then it answers 409 flow_exists', async () => {
    await h.call(MERCHANT, 'POST', '/flows', riskyFlow);
    expect(await h.call(MERCHANT, 'POST', '/flows', riskyFlow)).toMatchObject({ status: 409, body: { code: 'flow_exists' } });
    expect(await h.call(MERCHANT, 'POST', '/flows', { ...riskyFlow, name: 'simulator_auto_capture' })).toMatchObject({
      status: 409,
      body: { code: 'flow_exists' },
    });
  });

  it('when a merchant has 500 flows, then the 501st answers 422 flow_limit_reached and is not stored, while another merchant may still create flows', async () => {
    const flowNamed = (name: string) => ({
      name,
      capture_mode: 'automatic',
      steps: [
        { kind: 'authorization', processor: 'simulator' },
        { kind: 'capture', processor: 'simulator' },
      ],
    });
    for (let n = 1; n <= 500; n++) expect((await h.call(MERCHANT, 'POST', '/flows', flowNamed(`flow-${n}`))).status).toBe(201);
    const refused = await h.call(MERCHANT, 'POST', '/flows', flowNamed('flow-501'));
    expect([refused.status, refused.headers.get('content-type'), refused.body.code]).toEqual([
      422,
      expect.stringContaining('application/problem+json'),
      'flow_limit_reached',
    ]);
    expect(refused.body.detail).toContain('500');
    expect((await h.call(MERCHANT, 'GET', '/flows/flow-501')).status).toBe(404);
    const listed = (await h.call(MERCHANT, 'GET', '/flows')).body.data.filter((flow: Json) => !flow.built_in);
    expect(listed).toHaveLength(500);
    expect((await h.call(OTHER_MERCHANT, 'POST', '/flows', flowNamed('flow-501'))).status).toBe(201);
  });

  it.each([
    [
      'unknown_processor',
      'steps[0].processor',
      {
        steps: [
          { kind: 'authorization', processor: 'acme' },
          { kind: 'capture', processor: 'simulator' },
        ],
      },
    ],
    [
      'invalid_flow',
      'steps',
      {
        steps: [
          { kind: 'capture', processor: 'simulator' },
          { kind: 'risk', processor: 'simulator' },
        ],
      },
    ],
    [
      'invalid_flow',
      'steps[1].kind',
      {
        steps: [
          { kind: 'authorization', processor: 'simulator' },
          { kind: 'authentication_3ri', processor: 'simulator' },
          { kind: 'capture', processor: 'simulator' },
        ],
      },
    ],
  ])('when a flow is invalid, then it answers 422 %s on %s', async (code, field, override) => {
    const body = { ...riskyFlow, ...override };
    const answer = await h.call(MERCHANT, 'POST', '/flows', body);
    expect(answer).toMatchObject({ status: 422, body: { code, field } });
  });

  it('when a payment runs a flow with a risk step, then the risk transaction comes first', async () => {
    await h.call(MERCHANT, 'POST', '/flows', riskyFlow);
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { rules: [{ name: 'all', when: {}, flow: 'risk-then-manual' }] });
    const payment = await h.payOneOff(MERCHANT, CARDS.approved);
    expect(payment).toMatchObject({ status: 'authorized', flow: 'risk-then-manual' });
    const kinds = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => t.kind);
    expect(kinds).toEqual(['risk', 'authorization']);
  });
});

describe('per-step failure policy and fallback', () => {
  async function run(flow: Json, masked: string): Promise<{ payment: Json; attempts: string[][] }> {
    expect((await h.call(MERCHANT, 'POST', '/flows', flow)).status).toBe(201);
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: flow.name, rules: [] });
    const payment = await h.payOneOff(MERCHANT, masked);
    const attempts = (await h.call(MERCHANT, 'GET', `/payments/${payment.id}/transactions`)).body.data.map((t: Json) => [t.kind, t.status]);
    return { payment, attempts };
  }
  const flowWith = (name: string, risk: Json, authorization: Json = {}) => ({
    name,
    capture_mode: 'automatic',
    steps: [
      { kind: 'risk', processor: 'simulator', ...risk },
      { kind: 'authorization', processor: 'simulator', ...authorization },
      { kind: 'capture', processor: 'simulator' },
    ],
  });

  it('when a step with on_failure stop ends in a processor error, then the payment fails there and no later step runs', async () => {
    const { payment, attempts } = await run(flowWith('risk-stop', { on_failure: 'stop' }), CARDS.processorError);
    expect(payment).toMatchObject({ status: 'failed', failure_reason: 'processor_error' });
    expect(attempts).toEqual([['risk', 'error']]);
  });

  it('when a step with on_failure continue ends in a processor error, then the flow goes on to the next step', async () => {
    const { payment, attempts } = await run(flowWith('risk-continue', { on_failure: 'continue' }), CARDS.processorError);
    expect(payment).toMatchObject({ status: 'failed', failure_reason: 'processor_error' });
    expect(attempts).toEqual([
      ['risk', 'error'],
      ['authorization', 'error'],
    ]);
  });

  it('when an authorization ends in a retryable processor error, then each fallback processor is tried in order and every attempt is recorded', async () => {
    const { payment, attempts } = await run(
      flowWith('with-fallback', { on_failure: 'continue' }, { fallback: ['simulator', 'simulator'] }),
      CARDS.processorError,
    );
    expect(payment).toMatchObject({ status: 'failed', failure_reason: 'processor_error' });
    expect(attempts).toEqual([
      ['risk', 'error'],
      ['authorization', 'error'],
      ['authorization', 'error'],
      ['authorization', 'error'],
    ]);
  });

  it('when an authorization is declined, then no fallback is tried (a decline is not retryable)', async () => {
    const { payment, attempts } = await run(flowWith('decline-no-fallback', {}, { fallback: ['simulator'] }), CARDS.declined);
    expect(payment).toMatchObject({ status: 'processing', last_failed_attempt: { failure_reason: 'card_declined' } });
    expect(attempts).toEqual([
      ['risk', 'succeeded'],
      ['authorization', 'failed'],
    ]);
  });
});

describe('the flow matrix', () => {
  it('when a merchant set nothing, then GET /flow-matrix shows version 0 with simulator_auto_capture as default', async () => {
    expect((await h.call(MERCHANT, 'GET', '/flow-matrix')).body).toEqual({
      livemode: false,
      version: 0,
      default_flow: 'simulator_auto_capture',
      rules: [],
      updated_at: null,
    });
  });

  it('when the matrix is put twice, then each PUT is a new version and payments record the version and rule that chose their flow', async () => {
    const first = await h.call(MERCHANT, 'PUT', '/flow-matrix', {
      default_flow: 'simulator_auto_capture',
      rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
    });
    expect(first.body).toMatchObject({
      version: 1,
      rules: [{ name: 'manual-for-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
    });
    const byRule = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'manual-7' }));
    expect(byRule.body).toMatchObject({ flow: 'simulator_manual_capture', flow_decision: { matrix_version: 1, rule: 'manual-for-orders' } });
    const second = await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'simulator_manual_capture', rules: [] });
    expect(second.body.version).toBe(2);
    const byDefault = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff({ reference: 'manual-8' }));
    expect(byDefault.body).toMatchObject({ flow: 'simulator_manual_capture', flow_decision: { matrix_version: 2, rule: null } });
    expect((await h.call(MERCHANT, 'GET', `/payments/${byRule.body.id}`)).body.flow_decision).toEqual({ matrix_version: 1, rule: 'manual-for-orders' });
    expect((await h.call(OTHER_MERCHANT, 'GET', '/flow-matrix')).body.version).toBe(0);
  });

  it.each([
    ['unknown_flow', 'rules[1].flow', { name: 'b', when: {}, flow: 'nope' }],
    ['unknown_condition', 'rules[1].when.colour', { name: 'b', when: { colour: ['red'] }, flow: 'simulator_auto_capture' }],
    ['invalid_condition', 'rules[1].when.currency_code', { name: 'b', when: { currency_code: ['EURO'] }, flow: 'simulator_auto_capture' }],
    ['invalid_condition', 'rules[1].when.amount_gte', { name: 'b', when: { amount_gte: -1 }, flow: 'simulator_auto_capture' }],
    ['invalid_condition', 'rules[1].when.use_case', { name: 'b', when: { use_case: ['GUEST'] }, flow: 'simulator_auto_capture' }],
    ['duplicate_rule_name', 'rules[1].name', { name: 'a', when: {}, flow: 'simulator_auto_capture' }],
  ])('when a rule is invalid, then PUT answers 422 %s naming the rule and nothing changes', async (code, field, rule) => {
    const answer = await h.call(MERCHANT, 'PUT', '/flow-matrix', { rules: [{ name: 'a', when: {}, flow: 'simulator_auto_capture' }, rule] });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ code, field, rule: rule.name });
    expect(answer.body.detail).toContain(`Rule "${rule.name}"`);
    expect((await h.call(MERCHANT, 'GET', '/flow-matrix')).body.version).toBe(0);
  });

  it('when a flow is named after an object property (constructor, __proto__, toString), then PUT answers 422 unknown_flow, not 500 (found by the fuzz)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: name, rules: [] })).toMatchObject({
        status: 422,
        body: { code: 'unknown_flow', field: 'default_flow' },
      });
      expect(
        await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'simulator_auto_capture', rules: [{ name: 'r', when: {}, flow: name }] }),
      ).toMatchObject({ status: 422, body: { code: 'unknown_flow' } });
    }
  });

  it('when the default flow is unknown, then PUT answers 422 unknown_flow on default_flow', async () => {
    expect(await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'nope', rules: [] })).toMatchObject({
      status: 422,
      body: { code: 'unknown_flow', field: 'default_flow' },
    });
  });

  it('when explain is asked, then it answers the flow, the rule and the matrix version the decision would take', async () => {
    await h.call(MERCHANT, 'PUT', '/flow-matrix', {
      default_flow: 'simulator_auto_capture',
      rules: [
        { name: 'big-eur', when: { currency_code: ['EUR'], amount_gte: 100000 }, flow: 'simulator_manual_capture' },
        { name: 'amex', when: { scheme: ['amex'] }, flow: 'simulator_manual_capture' },
        { name: 'vip', when: { metadata: { tier: 'vip' }, use_case: ['ONE_OFF'] }, flow: 'simulator_manual_capture' },
      ],
    });
    const explain = (body: Json) => h.call(MERCHANT, 'POST', '/flow-matrix/explain', body).then((a) => a.body);
    expect(await explain({ amount: 100000, currency_code: 'EUR' })).toEqual({
      flow: 'simulator_manual_capture',
      rule: 'big-eur',
      matrix_version: 1,
      // The flow's authorization step, and where a payment of these facts would go first.
      authorization: {
        strategy: 'ordered',
        processors: ['simulator'],
        reason: 'step_order',
        detail: 'simulator: the only processor of the step that can take the payment',
      },
    });
    expect(await explain({ amount: 99999, currency_code: 'EUR' })).toMatchObject({ flow: 'simulator_auto_capture', rule: null, matrix_version: 1 });
    expect(await explain({ amount: 5, currency_code: 'USD', scheme: 'AMEX' })).toMatchObject({
      flow: 'simulator_manual_capture',
      rule: 'amex',
      matrix_version: 1,
    });
    expect(await explain({ amount: 5, currency_code: 'USD', metadata: { tier: 'vip' } })).toMatchObject({ rule: 'vip' });
    expect(await explain({ amount: 5, currency_code: 'USD', metadata: { tier: 'vip' }, use_case: 'SUBSEQUENT_RECURRING' })).toMatchObject({ rule: null });
    // Payment-shaped: a create body as sent (source and all), or a payment as answered.
    expect(await explain({ ...oneOff({ amount: 100000 }), return_url: 'https://shop.example/' })).toMatchObject({ rule: 'big-eur' });
    expect(await explain({ amount: { requested: 100000 }, currency_code: 'EUR', use_case: 'RECURRING', status: 'processing' })).toMatchObject({
      rule: 'big-eur',
    });
  });

  it("when explain is given a draft matrix, then it answers the draft's decision with the version a PUT would give it, saves nothing, and refuses an invalid draft as PUT does", async () => {
    await h.call(MERCHANT, 'PUT', '/flow-matrix', { default_flow: 'simulator_auto_capture', rules: [] });
    const draft = {
      default_flow: 'simulator_auto_capture',
      rules: [{ name: 'manual-orders', when: { reference_prefix: 'manual-' }, flow: 'simulator_manual_capture' }],
    };

    const explained = await h.call(MERCHANT, 'POST', '/flow-matrix/explain', { amount: 500, currency_code: 'EUR', reference: 'manual-7', matrix: draft });
    const invalid = await h.call(MERCHANT, 'POST', '/flow-matrix/explain', {
      amount: 500,
      currency_code: 'EUR',
      matrix: { ...draft, rules: [{ name: 'x', when: { colour: ['red'] }, flow: 'simulator_manual_capture' }] },
    });

    expect(explained).toMatchObject({ status: 200, body: { flow: 'simulator_manual_capture', rule: 'manual-orders', matrix_version: 2 } });
    expect(invalid).toMatchObject({ status: 422, body: { code: 'unknown_condition' } });
    expect((await h.call(MERCHANT, 'GET', '/flow-matrix')).body).toMatchObject({ version: 1, rules: [] });
    expect((await h.call(MERCHANT, 'POST', '/flow-matrix/explain', { amount: 500, currency_code: 'EUR', reference: 'manual-7' })).body).toMatchObject({
      flow: 'simulator_auto_capture',
      rule: null,
      matrix_version: 1,
    });
  });

  it('when a rule on the scheme holds once the card is known, then the payment runs the flow it names', async () => {
    await h.call(MERCHANT, 'PUT', '/flow-matrix', {
      rules: [{ name: 'mastercard-manual', when: { scheme: ['MASTERCARD'] }, flow: 'simulator_manual_capture' }],
    });
    const created = await h.call(MERCHANT, 'POST', '/payments/one-off', oneOff());
    expect(created.body.flow).toBe('simulator_auto_capture');
    await h.submitCard(created.body, '555555******4444', { scheme: 'MASTERCARD' });
    await h.settle();
    expect((await h.call(MERCHANT, 'GET', `/payments/${created.body.id}`)).body).toMatchObject({
      status: 'authorized',
      flow: 'simulator_manual_capture',
      flow_decision: { rule: 'mastercard-manual' },
    });
  });

  it('when a live merchant has no flow of real processors, then every create answers 422 simulator_not_allowed_in_live_mode, never a simulated success', async () => {
    for (const [path, body] of [
      ['/payments/one-off', oneOff()],
      ['/payments/unscheduled', oneOff()],
    ] as const) {
      expect(await h.call(LIVE_MERCHANT, 'POST', path, body)).toMatchObject({ status: 422, body: { code: 'simulator_not_allowed_in_live_mode' } });
    }
    expect((await h.call(LIVE_MERCHANT, 'GET', '/payments')).body.data).toEqual([]);
  });
});
