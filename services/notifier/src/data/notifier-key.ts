import { join } from 'node:path';
import { keyFromConfigOrFile } from '@vaultline/crypto';

export const NOTIFIER_KEY_FILE = 'notifier-secret.key';

/**
 * The key that seals endpoint secrets at rest: NOTIFIER_SECRET_KEY (base64, 32 bytes) when set —
 * the production profile must set it. Otherwise (embedded and local profiles) one is generated
 * once into DATA_DIR/notifier-secret.key (mode 0600) and read back on every later start; losing
 * that file means endpoint secrets must be rotated.
 */
export function resolveNotifierKey(options: { secretKey?: string; dataDir: string }): Buffer {
  return keyFromConfigOrFile({ value: options.secretKey, variable: 'NOTIFIER_SECRET_KEY', file: join(options.dataDir, NOTIFIER_KEY_FILE) });
}
