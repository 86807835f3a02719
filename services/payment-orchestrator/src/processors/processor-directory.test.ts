import type { ProcessorConnection } from '../domain/processor-port/processor-port';
import { ISO_AMOUNTS } from '../domain/processor-port/processor-amounts';
import { withAmounts } from './processor-directory';

class ClassConnection {
  readonly id = 'made-up';
  readonly capabilities = {
    authorize: true,
    capture: true,
    partialCapture: false,
    authentication3ri: false,
    authentication3ds: false,
    risk: false,
    explicitUnscheduledMit: false,
    modes: ['test'] as const,
  };
  authorize() {
    return Promise.resolve({ status: 'succeeded' as const, processor_reference: 'r1' });
  }
  capture() {
    return Promise.resolve({ status: 'succeeded' as const, processor_reference: 'c1' });
  }
  captureStatus() {
    return this.capture();
  }
}

describe("a connection with its plugin's amounts", () => {
  it('when a plugin opens a class instance, then the connection carries the amounts and keeps its methods', async () => {
    const connection = withAmounts(new ClassConnection() as unknown as ProcessorConnection, { ...ISO_AMOUNTS, processor: 'Made-up' });
    expect(connection.amounts?.processor).toBe('Made-up');
    expect(await connection.captureStatus(undefined as never, 'c1')).toEqual({ status: 'succeeded', processor_reference: 'c1' });
  });

  it('when the plugin declares no amounts, then the connection is the one it opened', () => {
    const opened = new ClassConnection() as unknown as ProcessorConnection;
    expect(withAmounts(opened, undefined)).toBe(opened);
  });
});
