import { loadRuntimeConfig } from './runtime-config';

describe('the runtime configuration', () => {
  it('when HOST is not set, then services bind loopback only (a container sets HOST=0.0.0.0)', () => {
    expect(loadRuntimeConfig({}).HOST).toBe('127.0.0.1');
    expect(loadRuntimeConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it("when nothing says otherwise, then the gateway's internal listener is loopback on 8081", () => {
    expect(loadRuntimeConfig({})).toMatchObject({ GATEWAY_INTERNAL_HOST: '127.0.0.1', GATEWAY_INTERNAL_PORT: 8081 });
  });
});
