import type { ValidationError } from '@vaultline/core';
import type { Processors } from '../processor-port/processor-port';
import type { ProcessorCapabilities } from '../processor-port/processor-lookup';
import { BUILT_IN_FLOWS, declaresExplicitUnscheduled, needsSecurityCode, processorsOf, usesSimulator, validateFlow, type Flow, type FlowStep } from './flow';

const all: ProcessorCapabilities = {
  authorize: true,
  capture: true,
  partialCapture: true,
  multipleCaptures: true,
  authentication3ri: true,
  authentication3ds: true,
  risk: true,
  explicitUnscheduledMit: true,
  modes: ['test'],
};
const processors: Processors = {
  get: (id) =>
    id === 'simulator'
      ? ({ id, capabilities: all } as never)
      : id === 'no-risk'
        ? ({ id, capabilities: { ...all, risk: false } } as never)
        : id === 'no-3ds'
          ? ({ id, capabilities: { ...all, authentication3ds: false } } as never)
          : undefined,
  ids: () => ['simulator', 'no-risk', 'no-3ds'],
};
const step = (kind: FlowStep['kind'], processor = 'simulator', extra: Partial<FlowStep> = {}): FlowStep => ({
  kind,
  processor,
  on_failure: 'stop',
  fallback: [],
  ...extra,
});
const flow = (steps: FlowStep[]): Flow => ({ name: 'f', capture_mode: 'automatic', steps, built_in: false, created_at: null });
const refusal = (f: Flow) => {
  try {
    validateFlow(f, processors);
  } catch (error) {
    return error as ValidationError;
  }
  return null;
};

describe('validateFlow', () => {
  it('when the built-in flows are checked, then they are valid and use the simulator', () => {
    for (const builtIn of Object.values(BUILT_IN_FLOWS)) {
      expect(refusal(builtIn)).toBeNull();
      expect(usesSimulator(builtIn)).toBe(true);
    }
  });

  it('when a flow has risk, 3RI, authorization and capture in that order, then it is valid', () => {
    expect(refusal(flow([step('risk'), step('authentication_3ri'), step('authorization'), step('capture')]))).toBeNull();
  });

  it.each([
    ['no authorization', [step('capture')], 'steps'],
    ['two authorizations', [step('authorization'), step('authorization'), step('capture')], 'steps'],
    ['no capture', [step('authorization')], 'steps'],
    ['3RI after the authorization', [step('authorization'), step('authentication_3ri'), step('capture')], 'steps[1].kind'],
    ['capture before the authorization', [step('capture'), step('authorization')], 'steps[0].kind'],
    ['two risk steps', [step('risk'), step('risk'), step('authorization'), step('capture')], 'steps[1].kind'],
    ['a capture with a fallback', [step('authorization'), step('capture', 'simulator', { fallback: ['simulator'] })], 'steps[1].fallback'],
  ])('when a flow has %s, then it is refused as invalid_flow on %s', (_what, steps, field) => {
    expect(refusal(flow(steps))).toMatchObject({ code: 'invalid_flow', extensions: { field } });
  });

  it('when a step names an unknown processor or fallback, then it is refused as unknown_processor on that name', () => {
    expect(refusal(flow([step('authorization', 'acme'), step('capture')]))).toMatchObject({
      code: 'unknown_processor',
      extensions: { field: 'steps[0].processor' },
    });
    expect(refusal(flow([step('authorization', 'simulator', { fallback: ['acme'] }), step('capture')]))).toMatchObject({
      code: 'unknown_processor',
      extensions: { field: 'steps[0].fallback[0]' },
    });
  });

  it("when a processor lacks the step's capability, then it is refused as processor_capability_missing", () => {
    expect(refusal(flow([step('risk', 'no-risk'), step('authorization'), step('capture')]))).toMatchObject({
      code: 'processor_capability_missing',
      extensions: { field: 'steps[0].processor' },
    });
  });

  it("when three_ds always names a processor (or fallback) that does not run 3-D Secure, then it is refused as processor_capability_missing on the step's three_ds", () => {
    expect(refusal(flow([step('authorization', 'no-3ds', { three_ds: 'always' }), step('capture', 'no-3ds')]))).toMatchObject({
      code: 'processor_capability_missing',
      extensions: { field: 'steps[0].three_ds' },
    });
    expect(refusal(flow([step('authorization', 'simulator', { three_ds: 'always', fallback: ['no-3ds'] }), step('capture')]))).toMatchObject({
      code: 'processor_capability_missing',
      extensions: { field: 'steps[0].three_ds' },
    });
    expect(refusal(flow([step('authorization', 'no-3ds', { three_ds: 'if_required' }), step('capture', 'no-3ds')]))).toBeNull();
  });

  it('when the capture names another processor than the authorization, then it is refused', () => {
    expect(refusal(flow([step('authorization', 'no-risk'), step('capture', 'simulator')]))).toMatchObject({
      code: 'invalid_flow',
      extensions: { field: 'steps' },
    });
  });

  it("when a flow's processors are listed, then fallbacks count and each appears once", () => {
    expect(processorsOf(flow([step('authorization', 'simulator', { fallback: ['no-risk', 'simulator'] }), step('capture')]))).toEqual(['simulator', 'no-risk']);
  });
});

describe('what a flow asks of its authorizing processors (earlier interface)', () => {
  const catalogue: Processors = {
    get: (id) =>
      ({
        simulator: { id: 'simulator', capabilities: all },
        'recurring-only': { id: 'simulator', capabilities: { ...all, explicitUnscheduledMit: false } },
        adyen: { id: 'adyen', capabilities: all },
      })[id] as never,
    ids: () => ['simulator', 'recurring-only', 'adyen'],
  };

  it('when any processor that may authorize (fallbacks included) lacks explicit unscheduled support, then the flow does not declare it', () => {
    expect(declaresExplicitUnscheduled(flow([step('authorization'), step('capture')]), catalogue)).toBe(true);
    expect(declaresExplicitUnscheduled(flow([step('authorization', 'recurring-only'), step('capture', 'recurring-only')]), catalogue)).toBe(false);
    expect(declaresExplicitUnscheduled(flow([step('authorization', 'simulator', { fallback: ['recurring-only'] }), step('capture')]), catalogue)).toBe(false);
  });

  it('when a real processor may authorize, then a stored card needs its security code; on the simulator alone it does not', () => {
    expect(needsSecurityCode(flow([step('authorization'), step('capture')]), catalogue)).toBe(false);
    expect(needsSecurityCode(flow([step('authorization', 'recurring-only'), step('capture', 'recurring-only')]), catalogue)).toBe(false);
    expect(needsSecurityCode(flow([step('authorization', 'adyen'), step('capture', 'adyen')]), catalogue)).toBe(true);
    expect(needsSecurityCode(flow([step('authorization', 'simulator', { fallback: ['adyen'] }), step('capture')]), catalogue)).toBe(true);
  });
});
