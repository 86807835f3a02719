import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ensurePrivateDirectory } from '@vaultline/config';

const OWNER_ONLY_FILE = 0o600;

/**
 * Call before opening an SQLite database file: the file is created empty with mode 0600 (an empty file
 * is an empty database) in a 0700 directory, and an existing one, with its -wal and -shm files, is
 * narrowed to 0600. SQLite creates the -wal and -shm files with the database file's mode, so they are
 * 0600 too, without touching the process umask (which worker threads cannot set). No-op for ':memory:'.
 */
export function preparePrivateDatabaseFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  const path = resolve(file);
  ensurePrivateDirectory(dirname(path));
  if (!existsSync(path)) closeSync(openSync(path, 'a', OWNER_ONLY_FILE));
  for (const companion of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    if (existsSync(companion)) chmodSync(companion, OWNER_ONLY_FILE);
  }
}
