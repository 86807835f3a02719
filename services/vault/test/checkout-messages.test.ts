import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

/** The hosted page's words, as the browser loads them (public/checkout-messages.js sets window.CheckoutMessages). */
function loadMessages(): { languages: string[]; translator: (language: string) => (key: string, values?: Record<string, unknown>) => string | undefined } {
  const window: Record<string, unknown> = {};
  runInNewContext(readFileSync(join(__dirname, '..', 'src', 'http', 'public', 'checkout-messages.js'), 'utf8'), { window });
  return window.CheckoutMessages as never;
}

/** The English table's keys: read from the source, the tables are not exported one by one. */
function englishKeys(): string[] {
  const source = readFileSync(join(__dirname, '..', 'src', 'http', 'public', 'checkout-messages.js'), 'utf8');
  const english = source.slice(source.indexOf('en: {'), source.indexOf('de: {'));
  return [...english.matchAll(/^\s+(\w+):/gm)].map((match) => match[1]!);
}

/** Words that may read the same as in English (a placeholder; German "optional"). */
const SAME_WORD = ['expiryPlaceholder', 'optional'];

describe('the hosted page speaks six languages', () => {
  const messages = loadMessages();
  const keys = englishKeys();

  it('when the page is read in any of its languages, then every text has a translation of its own (none falls back to English)', () => {
    expect(messages.languages).toEqual(['en', 'de', 'fr', 'es', 'nl', 'it']);
    const english = messages.translator('en');
    for (const language of messages.languages.filter((l) => l !== 'en')) {
      const t = messages.translator(language);
      const untranslated = keys.filter((key) => t(key) === english(key) && !SAME_WORD.includes(key));
      expect({ language, untranslated }).toEqual({ language, untranslated: [] });
    }
  });

  it('when a card failed or a limit was hit, then the new words (another card, the wait, TEST MODE) exist in every language with their values filled in', () => {
    for (const language of messages.languages) {
      const t = messages.translator(language);
      expect(t('attemptFailedTitle', { card: '•••• 0002' })).toContain('•••• 0002');
      expect(t('tooManyAttemptsWait', { seconds: 42 })).toContain('42');
      for (const key of ['anotherCard', 'testMode', 'testModeHint', 'session_abandoned']) expect(t(key)).toEqual(expect.any(String));
    }
  });
});
