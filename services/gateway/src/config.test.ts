import { ConfigError } from '@vaultline/config';
import { loadGatewayConfig } from './config';

describe('the gateway configuration', () => {
  it('when TRUST_PROXY is unset, then no proxy is trusted', () => {
    expect(loadGatewayConfig({}).trustProxy).toEqual({ kind: 'none' });
  });

  it('when TRUST_PROXY is a number of hops, then that many proxies are trusted', () => {
    expect(loadGatewayConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
  });

  it('when TRUST_PROXY is true or not an address, then a ConfigError names TRUST_PROXY', () => {
    for (const value of ['true', 'lb.internal']) {
      let error: unknown;
      try {
        loadGatewayConfig({ TRUST_PROXY: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((problem) => problem.variable)).toEqual(['TRUST_PROXY']);
    }
  });
});
