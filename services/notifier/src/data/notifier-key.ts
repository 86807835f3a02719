import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKey, keyFromBase64 } from '@vaultline/crypto';

export const NOTIFIER_KEY_FILE = 'notifier-secret.key';

/**
 * The key that seals endpoint secrets at rest: NOTIFIER_SECRET_KEY (base64, 32 bytes) when set —
 * the production profile must set it. Otherwise (embedded and local profiles) one is generated
 * once into DATA_DIR/notifier-secret.key (mode 0600) and read back on every later start; losing
 * that file means endpoint secrets must be rotated.
 */
export function resolveNotifierKey(options: { secretKey?: string; dataDir: string }): Buffer {
  if (options.secretKey) return keyFromBase64(options.secretKey, 'NOTIFIER_SECRET_KEY');
  const file = join(options.dataDir, NOTIFIER_KEY_FILE);
  if (existsSync(file)) return keyFromBase64(readFileSync(file, 'utf8'), file);
  mkdirSync(options.dataDir, { recursive: true });
  const key = generateKey();
  try {
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return keyFromBase64(readFileSync(file, 'utf8'), file);
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}
