import { Writable } from 'node:stream';
import { createLogger } from './create-logger';

const PAN = '4242424242424242';
const AMEX = '378282246310005';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { destination, text: () => lines.join(''), lines };
}

describe('createLogger', () => {
  it('when a PAN appears in an error message, nested objects and under sensitive keys, then no line contains it', () => {
    const out = capture();
    const logger = createLogger({ service: 'test', level: 'debug', destination: out.destination });

    logger.error({ err: new Error(`card ${PAN} declined`) }, 'payment failed');
    logger.info({ request: { body: { card: { number: PAN, cvc: '123', exp_month: 12, exp_year: 2030 } } } }, 'deep');
    logger.info({ a: { b: { c: { d: { e: { pan: PAN, note: `spaced 4242 4242 4242 4242 and ${AMEX}` } } } } } }, 'deeper');
    logger.warn(`message text with ${PAN}`);
    logger.info({ list: [{ account_number: PAN }, `dashed 4242-4242-4242-4242`] }, 'arrays');

    const text = out.text();
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(AMEX);
    expect(text).not.toContain('4242 4242 4242 4242');
    expect(text).not.toContain('4242-4242-4242-4242');
    expect(text).not.toMatch(/"cvc":"123"/);
    expect(out.lines).toHaveLength(5);
    // masked forms stay useful for troubleshooting
    expect(text).toContain('424242******4242');
  });

  it('when a PAN is glued to other digits or runs across separators with them in a log line, then no line contains it', () => {
    const out = capture();
    const logger = createLogger({ service: 'test', level: 'info', destination: out.destination });
    const visa = '4000056655665556';

    logger.info(`exp 12 ${visa}`);
    logger.info({ note: '4000-0566-5566-5556 123' }, 'dashed with a code after it');
    logger.warn({ reference: `12${visa}` }, 'glued');

    const digits = out.text().replace(/[ -]/g, '');
    expect(digits).not.toContain(visa);
    // Only the first six and last four of the card number may remain.
    expect(digits).not.toContain(visa.slice(6, 12));
    expect(digits.match(/400005\*+5556/g)).toHaveLength(2);
  });

  it('when secrets are logged under header and credential keys at any depth, then they are censored and expiry stays visible', () => {
    const out = capture();
    const logger = createLogger({ service: 'test', level: 'info', destination: out.destination });

    logger.info(
      {
        headers: { authorization: 'Bearer abc.def', 'x-api-key': 'sk_test_secretvalue', 'X-API-KEY-ACME-VALUE': 'provider-secret' },
        config: { nested: { deeper: { api_key: 'k1', password: 'p1', private_key: 'pk', secret: 's1' } } },
        card: { exp_month: 12, exp_year: 2031 },
      },
      'request',
    );

    const line = JSON.parse(out.text()) as Record<string, unknown>;
    const text = JSON.stringify(line);
    for (const secret of ['abc.def', 'sk_test_secretvalue', 'provider-secret', 'k1', 'p1', '"pk"', 's1']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[REDACTED]');
    expect(line.card).toEqual({ exp_month: 12, exp_year: 2031 });
    expect(line.service).toBe('test');
  });

  it('when an ordinary number such as an order number is logged, then it is left alone', () => {
    const out = capture();
    const logger = createLogger({ service: 'test', level: 'info', destination: out.destination });
    logger.info({ order: '1234567890123' }, 'order 1234567890123');
    expect(out.text()).toContain('1234567890123');
  });

  it('when the level is silent, then nothing is written', () => {
    const out = capture();
    const logger = createLogger({ service: 'test', level: 'silent', destination: out.destination });
    logger.error({ pan: PAN }, 'boom');
    expect(out.text()).toBe('');
  });

  it('when no level is given, then LOG_LEVEL decides', () => {
    const previous = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'warn';
    try {
      const logger = createLogger({ service: 'test', destination: capture().destination });
      expect(logger.level).toBe('warn');
    } finally {
      process.env.LOG_LEVEL = previous;
    }
  });
});
