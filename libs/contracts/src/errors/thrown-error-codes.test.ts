import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { thrownErrorCodes } from './thrown-error-codes';

describe('thrownErrorCodes', () => {
  it('when errors are built directly, by subclasses, through a code parameter, by helpers and by zod params, then each code is found; tests are not read', () => {
    const root = mkdtempSync(join(tmpdir(), 'codes-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src', 'errors.ts'),
      `
      class Refused extends ConflictError { constructor() { super('refused_here', 'no'); } }
      class Named extends ConflictError { constructor(code: string) { super(code, 'no'); } }
      class Missing extends NotFoundError { constructor() { super('widget'); } }
      const a = new AppError('direct_code', 400, 'x');
      const b = new ValidationError('amount', 'detail', 'field_code');
      const c = new Named('passed_through');
      const d = new NotFoundError('gadget');
      const fail = (detail: string, code: string) => new ValidationError('x', detail, code);
      fail('d', 'via_helper');
      const schema = z.string().refine(() => true, { message: 'm', params: { code: 'from_zod' } });
      const field = new ValidationError('not_a_code', 'detail');
      class ByMode extends AppError { constructor(mode: string) { super(\`refused_in_\${mode}_mode\`, 403, 'x'); } }
      `,
    );
    writeFileSync(join(root, 'src', 'errors.test.ts'), `new AppError('only_in_a_test', 400, 'x');`);
    const codes = [...thrownErrorCodes([root]).keys()];
    for (const code of [
      'refused_here',
      'widget_not_found',
      'direct_code',
      'field_code',
      'passed_through',
      'gadget_not_found',
      'via_helper',
      'from_zod',
      'validation_failed',
      'refused_in_*_mode',
    ]) {
      expect({ code, found: codes.includes(code) }).toEqual({ code, found: true });
    }
    expect(codes).not.toContain('only_in_a_test');
    expect(codes).not.toContain('not_a_code');
    expect(codes).not.toContain('amount');
  });
});
