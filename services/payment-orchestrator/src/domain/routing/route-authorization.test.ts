import { declineOf } from '../declines/decline';
import type { FlowStep } from '../flows/flow';
import type { AuthorizationOutcome } from '../processor-port/processor-port';
import type { RoutingChoice } from './choose-processor';
import { resumeRoute, startRoute, type RouteContext } from './route-authorization';

const approved: AuthorizationOutcome = { status: 'succeeded', processor_reference: 'ok' };
const declined = (category: Parameters<typeof declineOf>[0]['category'], advice: string | null = null): AuthorizationOutcome => ({
  status: 'failed',
  failure_reason: category,
  processor_reference: 'no',
  decline: declineOf({ category, code: category }, { processor_code: null, processor_message: null, advice_code: advice }),
});
const challenge: AuthorizationOutcome = {
  status: 'action_required',
  action: { type: 'redirect', url: 'https://bank.test/acs', method: 'GET', data: {} },
  processor_reference: 'p',
  resume: {},
  return_parameters: ['r'],
};

const step = (on_decline: FlowStep['on_decline'] = []): FlowStep => ({
  kind: 'authorization',
  processor: 'a',
  fallback: ['b', 'c'],
  on_failure: 'stop',
  on_decline,
});
const choice: RoutingChoice = { strategy: 'ordered', order: ['a', 'b', 'c'], reason: 'step_order', detail: 'a: the first processor of the step' };
const empty = { strategy: 'ordered' as const, decisions: [], attempts: [] };

/** A context whose processors answer from a script, in order; it records who was asked and whether as a step-up. */
function scripted(answers: AuthorizationOutcome[], overrides: Partial<RouteContext> & { on_decline?: FlowStep['on_decline'] } = {}) {
  const asked: string[] = [];
  const context: RouteContext = {
    step: step(overrides.on_decline),
    consumerCanAuthenticate: true,
    authorize: async (processor, stepUp) => {
      asked.push(stepUp ? `${processor}+3ds` : processor);
      return answers.shift() ?? approved;
    },
    ...overrides,
  };
  return { context, asked };
}

describe('routing an authorization', () => {
  it('when the first processor authorizes, then no other is asked', async () => {
    const { context, asked } = scripted([approved]);
    const result = await startRoute(context, empty, choice, { at: '2026-06-01T10:00:00.000Z' });
    expect(asked).toEqual(['a']);
    expect(result.routing.attempts).toEqual([{ processor: 'a', position: 0, reason: 'a: the first processor of the step', result: 'authorized' }]);
  });

  it('when a processor does not answer, then the next is asked without any rule (a technical error always goes on)', async () => {
    const { context, asked } = scripted([{ status: 'error', failure_reason: 'processor_timeout' }, approved]);
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a', 'b']);
    expect(result.attempts[0]!.decline).toMatchObject({ category: 'processor_unavailable', code: 'processor_timeout', retryable: true });
  });

  it('when a decline has no rule, then the route stops there: a decline stands unless the flow says otherwise', async () => {
    const { context, asked } = scripted([declined('do_not_honor')]);
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a']);
    expect(result.routing.attempts[0]!.then).toEqual({
      action: 'stopped',
      reason: 'a declined (do_not_honor): no on_decline rule names do_not_honor, so the decline stands',
    });
  });

  it('when the rule says next_processor, then each next processor is asked while declines of that category come, and the last decline stands', async () => {
    const { context, asked } = scripted([declined('do_not_honor'), declined('do_not_honor'), declined('do_not_honor')], {
      on_decline: [{ categories: ['do_not_honor'], action: 'next_processor' }],
    });
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a', 'b', 'c']);
    expect(result.routing.attempts.map((attempt) => attempt.then?.action)).toEqual(['next_processor', 'next_processor', 'stopped']);
  });

  it('when a decline is hard, then nobody else is asked even though a rule names a softer category', async () => {
    for (const hard of [
      declined('lost_or_stolen'),
      declined('suspected_fraud'),
      declined('invalid_card'),
      declined('do_not_honor', '03'),
      declined('insufficient_funds', '21'),
    ]) {
      const { context, asked } = scripted([hard], { on_decline: [{ categories: ['do_not_honor', 'insufficient_funds'], action: 'next_processor' }] });
      await startRoute(context, empty, choice, { at: 'x' });
      expect(asked).toEqual(['a']);
    }
  });

  it('when the rule says stop, then the route stops and says which rule', async () => {
    const { context } = scripted([declined('expired_card')], { on_decline: [{ categories: ['expired_card'], action: 'stop' }] });
    expect((await startRoute(context, empty, choice, { at: 'x' })).routing.attempts[0]!.then?.reason).toContain('on_decline says stop for expired_card');
  });

  it("when the schemes' limit refuses a merchant-initiated retry, then next_processor stops with the limit's words", async () => {
    const { context, asked } = scripted([declined('insufficient_funds')], {
      on_decline: [{ categories: ['insufficient_funds'], action: 'next_processor' }],
      retryRefusal: (declines) => (declines.length >= 1 ? 'Visa allows 15 reattempts' : null),
    });
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a']);
    expect(result.routing.attempts[0]!.then?.reason).toContain('but Visa allows 15 reattempts');
  });

  it('when the issuer asks for authentication and the rule says step_up_3ds, then the same processor is asked again with a challenge; a second soft decline after it stands', async () => {
    const { context, asked } = scripted([declined('authentication_required'), declined('authentication_required')], {
      on_decline: [{ categories: ['authentication_required'], action: 'step_up_3ds' }],
    });
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a', 'a+3ds']);
    expect(result.routing.attempts.map((attempt) => [attempt.three_ds ?? null, attempt.then?.action])).toEqual([
      [null, 'step_up_3ds'],
      ['step_up', 'stopped'],
    ]);
  });

  it('when no consumer can authenticate (merchant-initiated), then step_up_3ds stops and says so', async () => {
    const { context, asked } = scripted([declined('authentication_required')], {
      consumerCanAuthenticate: false,
      on_decline: [{ categories: ['authentication_required'], action: 'step_up_3ds' }],
    });
    const result = await startRoute(context, empty, choice, { at: 'x' });
    expect(asked).toEqual(['a']);
    expect(result.routing.attempts[0]!.then?.reason).toContain('no consumer can authenticate');
  });

  it('when the step-up sends the consumer to authenticate, then the route waits; the resumed answer completes that attempt and a decline then goes on by the rules', async () => {
    const on_decline = [
      { categories: ['authentication_required' as const], action: 'step_up_3ds' as const },
      { categories: ['do_not_honor' as const], action: 'next_processor' as const },
    ];
    const first = scripted([declined('authentication_required'), challenge], { on_decline });
    const waiting = await startRoute(first.context, empty, choice, { at: 'x' });
    expect(waiting.routing.attempts.map((attempt) => attempt.result)).toEqual(['declined', 'authentication']);

    const back = scripted([approved], { on_decline });
    const resumed = await resumeRoute(back.context, waiting.routing, 'a', declined('do_not_honor'));
    expect(back.asked).toEqual(['b']);
    expect(resumed.routing.attempts.map((attempt) => [attempt.processor, attempt.three_ds ?? null, attempt.result])).toEqual([
      ['a', null, 'declined'],
      ['a', 'step_up', 'declined'],
      ['b', null, 'authorized'],
    ]);
  });

  it('when a step names the same processor twice, then each place is asked once (the route follows places, not names)', async () => {
    const { context, asked } = scripted([
      { status: 'error', failure_reason: 'processor_unavailable' },
      { status: 'error', failure_reason: 'processor_unavailable' },
    ]);
    await startRoute(context, empty, { ...choice, order: ['a', 'a'] }, { at: 'x' });
    expect(asked).toEqual(['a', 'a']);
  });
});
