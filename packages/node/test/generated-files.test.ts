import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The drift check: the SDK's OpenAPI documents and types are generated, never edited, and must match the
 * API's document as it is now. When this fails, run `pnpm --filter @vaultline/node generate` and commit.
 * (Generation runs in a process of its own: openapi-typescript loads ES modules that jest cannot require.)
 */
const packageDir = join(__dirname, '..');
const checkGenerated = () =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate.ts', '--check'], { cwd: packageDir, encoding: 'utf8', timeout: 60_000 });

describe('the generated files of the SDK', () => {
  it('when the OpenAPI document is generated again, then every committed file is exactly what generation writes', () => {
    const result = checkGenerated();
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('when a generated file differs from the document, then the check fails and names the file and the command that fixes it', () => {
    const file = join(packageDir, 'src/generated/merchant.ts');
    const backup = `${file}.drift-check`;
    copyFileSync(file, backup);
    try {
      writeFileSync(file, readFileSync(file, 'utf8').replace('"/payments/one-off"', '"/payments/one-off-renamed"'));
      const result = checkGenerated();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('src/generated/merchant.ts');
      expect(result.stderr).toContain('pnpm --filter @vaultline/node generate');
    } finally {
      copyFileSync(backup, file);
      rmSync(backup, { force: true });
    }
  });
});
