import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDirectory } from './private-files';

describe('ensurePrivateDirectory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'private-dir-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const modeOf = (path: string) => statSync(path).mode & 0o7777;

  it('when the directory is missing, then it is created 0700 with its parents', () => {
    ensurePrivateDirectory(join(dir, 'a', 'b'));

    expect(modeOf(join(dir, 'a', 'b'))).toBe(0o700);
  });

  it('when our directory exists with wider access, then it is narrowed to 0700', () => {
    const data = join(dir, 'data');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);

    ensurePrivateDirectory(data);

    expect(modeOf(data)).toBe(0o700);
  });

  it('when the directory is shared (sticky bit, such as /tmp), then it is left as it is', () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);

    ensurePrivateDirectory(shared);

    expect(modeOf(shared)).toBe(0o1777);
  });
});
