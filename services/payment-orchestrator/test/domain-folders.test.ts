import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * domain/payment/ is the payment's life (create, authenticate, authorize, capture, cancel), not the hub
 * of everything after it: refunds (running them, their processor notifications), reports, disputes and
 * early fraud warnings depend on the payment, never the reverse.
 */
const DOMAIN = join(__dirname, '..', 'src', 'domain');
const AFTER_THE_PAYMENT = ['refunds', 'reports', 'disputes', 'fraud-warnings'];

const sourceFiles = (folder: string): string[] => readdirSync(join(DOMAIN, folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

const importsOf = (folder: string, file: string): string[] =>
  [...readFileSync(join(DOMAIN, folder, file), 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map((match) => match[1]!);

describe('the orchestrator domain folders depend one way', () => {
  it('when a file of domain/payment imports, then never from refunds, reports, disputes or fraud-warnings', () => {
    const backwards = sourceFiles('payment').flatMap((file) =>
      importsOf('payment', file)
        .filter((path) => AFTER_THE_PAYMENT.some((folder) => path.startsWith(`../${folder}/`)))
        .map((path) => `payment/${file} imports ${path}`),
    );
    expect(backwards).toEqual([]);
  });

  it('when refund running and refund notifications are looked for, then they are in domain/refunds', () => {
    expect(sourceFiles('refunds')).toEqual(expect.arrayContaining(['after-sale-worker.ts', 'after-sale-notifications.ts', 'advance-refund.ts']));
    expect(sourceFiles('payment')).not.toEqual(expect.arrayContaining(['after-sale-worker.ts']));
  });
});
