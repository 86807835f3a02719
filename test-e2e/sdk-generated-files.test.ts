import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The drift check of the Python and Go SDKs: their generated files (sdks/python/src/vaultline/types.py,
 * _resources.py, _version.py; sdks/go/zz_generated_*.go) must be what sdks/generator makes of the OpenAPI
 * document as it is now. When this fails, run `pnpm exec tsx sdks/generator/generate.ts` and commit.
 */
const root = join(__dirname, '..');
const checkGenerated = () =>
  spawnSync(process.execPath, ['--import', 'tsx', 'sdks/generator/generate.ts', '--check'], { cwd: root, encoding: 'utf8', timeout: 120_000 });

describe('the generated files of the Python and Go SDKs', () => {
  it('when the OpenAPI document is generated again, then every committed file is exactly what generation writes', () => {
    const result = checkGenerated();
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it.each([
    ['sdks/python/src/vaultline/_resources.py', '"/payments/one-off"'],
    ['sdks/go/zz_generated_services.go', '"/payments/one-off"'],
  ])('when %s differs from the document, then the check fails and names it and the command that fixes it', (path, route) => {
    const file = join(root, path);
    const backup = `${file}.drift-check`;
    copyFileSync(file, backup);
    try {
      writeFileSync(file, readFileSync(file, 'utf8').replace(route, route.replace('one-off', 'one-off-renamed')));
      const result = checkGenerated();
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toContain('pnpm exec tsx sdks/generator/generate.ts');
    } finally {
      copyFileSync(backup, file);
      rmSync(backup, { force: true });
    }
  });
});
