import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './load-config';
import { ensurePrivateDirectory } from './private-files';

const KEY_BYTES = 32;

export interface KeySource {
  /** The variable that may hold the key (base64 or base64url of 32 bytes), named in errors. */
  variable: string;
  /** Its value in the environment, if set. */
  value: string | undefined;
  /** Where the key is kept when the variable is unset. */
  file: string;
  /** The variable that named `file`, if any: named in errors about the file's content instead of `variable`. */
  fileVariable?: string;
}

/**
 * A service's 32-byte key: the variable when set (production sets it or mounts the file);
 * otherwise the file, generated once with a random key and mode 0600 (in a 0700 directory) and read back on every later
 * start (embedded and local profiles; losing it means what it sealed cannot be opened). If two
 * processes create the file at once, both use the first one. A key that is not 32 bytes of
 * base64 stops the start with a ConfigError naming the variable (never quoting the value).
 */
export function loadKey(source: KeySource): Buffer {
  if (source.value) return decodeKey(source.value, source.variable);
  const fileVariable = source.fileVariable ?? source.variable;
  const { file } = source;
  if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'), fileVariable, file);
  ensurePrivateDirectory(dirname(file));
  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return decodeKey(readFileSync(file, 'utf8'), fileVariable, file);
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}

function decodeKey(text: string, variable: string, file?: string): Buffer {
  const value = text.trim();
  const key = Buffer.from(value, /[-_]/.test(value) ? 'base64url' : 'base64');
  if (key.length === KEY_BYTES) return key;
  const where = file ? `the key file ${file}` : 'it';
  throw new ConfigError([{ variable, reason: `${where} must hold ${KEY_BYTES} bytes encoded as base64` }]);
}
