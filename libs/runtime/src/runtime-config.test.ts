import { busRetryOf, loadRuntimeConfig } from './runtime-config';

describe('the runtime configuration', () => {
  it('when HOST is not set, then services bind loopback only (a container sets HOST=0.0.0.0)', () => {
    expect(loadRuntimeConfig({}).HOST).toBe('127.0.0.1');
    expect(loadRuntimeConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it('when BUS_RETRY_* are not set, then handlers get 12 attempts from 200 ms to 60 s; set, they are taken; 0 attempts stops the start naming the variable', () => {
    expect(busRetryOf(loadRuntimeConfig({}))).toEqual({ maxAttempts: 12, baseDelayMs: 200, maxDelayMs: 60_000 });
    expect(busRetryOf(loadRuntimeConfig({ BUS_RETRY_MAX_ATTEMPTS: '20', BUS_RETRY_BASE_DELAY_MS: '500', BUS_RETRY_MAX_DELAY_SECONDS: '300' }))).toEqual({
      maxAttempts: 20,
      baseDelayMs: 500,
      maxDelayMs: 300_000,
    });
    expect(() => loadRuntimeConfig({ BUS_RETRY_MAX_ATTEMPTS: '0' })).toThrow(/BUS_RETRY_MAX_ATTEMPTS/);
  });

  it("when nothing says otherwise, then the gateway's internal listener is loopback on 8081", () => {
    expect(loadRuntimeConfig({})).toMatchObject({ GATEWAY_INTERNAL_HOST: '127.0.0.1', GATEWAY_INTERNAL_PORT: 8081 });
  });

  it('when EGRESS_PROXY_URL names a CONNECT proxy, then the runtime carries its host and port; with credentials, a path or https it stops the start, naming the variable', () => {
    expect(loadRuntimeConfig({ EGRESS_PROXY_URL: 'http://smokescreen.egress:4750' }).EGRESS_PROXY_URL).toEqual({ host: 'smokescreen.egress', port: 4750 });
    expect(loadRuntimeConfig({}).EGRESS_PROXY_URL).toBeUndefined();
    expect(() => loadRuntimeConfig({ EGRESS_PROXY_URL: 'http://user:secret@proxy:3128' })).toThrow(/EGRESS_PROXY_URL: an egress proxy is http:\/\/host:port/);
  });
});
