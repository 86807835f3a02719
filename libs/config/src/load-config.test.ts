import { z } from 'zod';
import { ConfigError, loadConfig } from './load-config';
import { envBoolean, envDurationMs, envInteger, envList, envPort, envUrl } from './env-helpers';

const schema = z.object({
  PORT: envPort().default(8080),
  DEBUG: envBoolean().default(false),
  BROKERS: envList().default([]),
  STORE_URL: envUrl(),
  TIMEOUT: envDurationMs().default(5_000),
  RETRIES: envInteger({ min: 0, max: 10 }).optional(),
});

describe('loadConfig', () => {
  it('when every variable is valid, then they are parsed into typed values', () => {
    const config = loadConfig(schema, {
      PORT: '9000',
      DEBUG: 'true',
      BROKERS: 'a:1, b:2,,',
      STORE_URL: 'sqlite:/tmp/x.db',
      TIMEOUT: '30s',
      RETRIES: '3',
    });
    expect(config).toEqual({ PORT: 9000, DEBUG: true, BROKERS: ['a:1', 'b:2'], STORE_URL: 'sqlite:/tmp/x.db', TIMEOUT: 30_000, RETRIES: 3 });
  });

  it('when optional variables are unset or empty, then defaults apply', () => {
    const config = loadConfig(schema, { STORE_URL: 'memory://', PORT: '' });
    expect(config.PORT).toBe(8080);
    expect(config.DEBUG).toBe(false);
    expect(config.TIMEOUT).toBe(5_000);
    expect(config.RETRIES).toBeUndefined();
  });

  it('when several variables are invalid, then the error names each of them and why, without their values', () => {
    let caught: unknown;
    try {
      loadConfig(schema, { PORT: 'eighty', DEBUG: 'maybe', TIMEOUT: '5 minutes', RETRIES: '11' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.problems.map((p) => p.variable).sort()).toEqual(['DEBUG', 'PORT', 'RETRIES', 'STORE_URL', 'TIMEOUT']);
    expect(error.message).toContain('STORE_URL: is required');
    expect(error.message).toContain('PORT: must be an integer');
    expect(error.message).toContain('DEBUG: must be true or false');
    expect(error.message).toContain('RETRIES: must be at most 10');
    expect(error.message).not.toContain('eighty');
    expect(error.message).not.toContain('maybe');
  });

  it('when a URL is not absolute or uses a refused protocol, then it is rejected', () => {
    const s = z.object({ U: envUrl(['http:', 'https:']) });
    expect(() => loadConfig(s, { U: 'not a url' })).toThrow('U: must be an absolute URL');
    expect(() => loadConfig(s, { U: 'ftp://x' })).toThrow('U: must use http: or https:');
    expect(loadConfig(s, { U: 'https://x.example' }).U).toBe('https://x.example');
  });

  it('when durations carry units, then they become milliseconds', () => {
    const s = z.object({ D: envDurationMs() });
    expect(loadConfig(s, { D: '250' }).D).toBe(250);
    expect(loadConfig(s, { D: '250ms' }).D).toBe(250);
    expect(loadConfig(s, { D: '5m' }).D).toBe(300_000);
    expect(loadConfig(s, { D: '2h' }).D).toBe(7_200_000);
    expect(loadConfig(s, { D: '1d' }).D).toBe(86_400_000);
  });
});
