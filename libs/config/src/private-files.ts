import { chmodSync, mkdirSync, statSync } from 'node:fs';

const OWNER_ONLY_DIRECTORY = 0o700;
const STICKY = 0o1000;

/**
 * Makes `dir` a directory only its owner can enter (0700): created so when missing, narrowed when it
 * exists with wider access and belongs to this process's user. A shared directory (sticky bit, such as
 * /tmp) or one owned by another user is left as it is: narrowing it would break its other users.
 */
export function ensurePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_ONLY_DIRECTORY });
  const { mode, uid } = statSync(dir);
  const ours = process.getuid === undefined || process.getuid() === uid;
  if (ours && (mode & STICKY) === 0 && (mode & 0o777) !== OWNER_ONLY_DIRECTORY) chmodSync(dir, OWNER_ONLY_DIRECTORY);
}
