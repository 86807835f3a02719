import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateKey, keyFromBase64 } from './aes-gcm';

/**
 * A 32-byte key from configuration (base64 `value`, named `variable` in errors) or, when none is
 * configured, from `file`: generated once with mode 0600 and read back on every later start (the
 * embedded and local profiles). If two processes create the file at once, both use the first one.
 */
export function keyFromConfigOrFile(options: { value?: string; variable: string; file: string }): Buffer {
  if (options.value) return keyFromBase64(options.value, options.variable);
  const { file } = options;
  if (existsSync(file)) return keyFromBase64(readFileSync(file, 'utf8'), file);
  mkdirSync(dirname(file), { recursive: true });
  const key = generateKey();
  try {
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return keyFromBase64(readFileSync(file, 'utf8'), file);
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}
