import { join } from 'node:path';
import { ERROR_CATALOGUE, ERROR_GROUPS } from './error-catalogue';
import { thrownErrorCodes } from './thrown-error-codes';

const repository = join(__dirname, '../../../..');
const patternOf = (code: string) => new RegExp(`^${code.split('*').join('[a-z0-9_]+')}$`);

describe('the error catalogue', () => {
  it('when the code base is read for the problem codes it throws, then every one has an entry saying what it means and what to do', () => {
    const thrown = thrownErrorCodes(['libs', 'services', 'deploy/launcher/src'].map((folder) => join(repository, folder)));
    expect(thrown.size).toBeGreaterThan(100);
    // A code built from a template (`destination_not_allowed_in_*_mode`) needs at least one entry of its shape.
    const catalogued = (code: string) =>
      code.includes('*') ? [...ERROR_CATALOGUE.keys()].some((entry) => patternOf(code).test(entry)) : ERROR_CATALOGUE.has(code);
    const missing = [...thrown.keys()].filter((code) => !catalogued(code)).map((code) => `${code} (${thrown.get(code)![0]!.replace(repository, '')})`);
    expect(missing).toEqual([]);
  });

  it('when the entries are read, then each code appears once, in snake case, with a 4xx or 5xx status and both texts', () => {
    const codes = ERROR_GROUPS.flatMap((group) => Object.keys(group.entries));
    expect(new Set(codes).size).toBe(codes.length);
    for (const [code, entry] of ERROR_CATALOGUE) {
      expect({
        code,
        ok: /^[a-z0-9]+(_[a-z0-9]+)*$/.test(code) && entry.status >= 400 && entry.status < 600 && entry.meaning.length > 10 && entry.action.length > 5,
      }).toEqual({ code, ok: true });
    }
  });
});
