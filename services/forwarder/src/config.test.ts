import { ConfigError } from '@vaultline/config';
import { loadForwarderConfig } from './config';

describe('forwarder configuration: FORWARD_EXTRA_DESTINATIONS', () => {
  it('when it is a comma-separated list, then each URL is a destination without card fields or mode of its own', () => {
    expect(loadForwarderConfig({ FORWARD_EXTRA_DESTINATIONS: 'https://a.example/v69/payments, https://b.example/payments' }).extraDestinations).toEqual([
      { url: 'https://a.example/v69/payments' },
      { url: 'https://b.example/payments' },
    ]);
  });

  it('when it is a JSON array, then card fields and mode are read with each URL', () => {
    const env = {
      FORWARD_EXTRA_DESTINATIONS: JSON.stringify([{ url: 'https://p.example/cards', card_fields: { 'card.pan': 'account_number' }, mode: 'live' }]),
    };
    expect(loadForwarderConfig(env).extraDestinations).toEqual([
      { url: 'https://p.example/cards', card_fields: { 'card.pan': 'account_number' }, mode: 'live' },
    ]);
  });

  it.each([
    ['a card field naming no placeholder', [{ url: 'https://p.example/cards', card_fields: { 'card.name': 'cardholder_name' } }]],
    ['an unknown mode', [{ url: 'https://p.example/cards', mode: 'sandbox' }]],
    ['an unknown key', [{ url: 'https://p.example/cards', fields: {} }]],
  ])('when an entry has %s, then starting fails naming FORWARD_EXTRA_DESTINATIONS', (_what, entries) => {
    let error: unknown;
    try {
      loadForwarderConfig({ FORWARD_EXTRA_DESTINATIONS: JSON.stringify(entries) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('FORWARD_EXTRA_DESTINATIONS');
  });

  it('when it starts with [ but is not JSON, then starting fails naming it', () => {
    expect(() => loadForwarderConfig({ FORWARD_EXTRA_DESTINATIONS: '[{"url":' })).toThrow(/FORWARD_EXTRA_DESTINATIONS/);
  });
});
