import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECRET_VARIABLES, withSecretFiles } from './secret-files';

describe('secrets from files (NAME_FILE)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'vaultline-secret-files-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when MONGO_URL_FILE, REDIS_URL_FILE and KAFKA_SASL_PASSWORD_FILE name files, then their content (without the trailing newline) becomes the variables', () => {
    writeFileSync(join(dir, 'mongo'), 'mongodb://vault:s3cret@mongo:27017/vaultline_vault?replicaSet=rs0&tls=true\n');
    writeFileSync(join(dir, 'redis'), 'rediss://:p4ss@redis:6379');
    writeFileSync(join(dir, 'kafka'), 'k4fka\n');

    const env = withSecretFiles({
      MONGO_URL_FILE: join(dir, 'mongo'),
      REDIS_URL_FILE: join(dir, 'redis'),
      KAFKA_SASL_PASSWORD_FILE: join(dir, 'kafka'),
      LOG_LEVEL: 'info',
    });

    expect(env).toMatchObject({
      MONGO_URL: 'mongodb://vault:s3cret@mongo:27017/vaultline_vault?replicaSet=rs0&tls=true',
      REDIS_URL: 'rediss://:p4ss@redis:6379',
      KAFKA_SASL_PASSWORD: 'k4fka',
      LOG_LEVEL: 'info',
    });
  });

  it('when a variable and its _FILE are both set, or the file cannot be read, then the start fails naming the variable and not the value', () => {
    expect(() => withSecretFiles({ API_KEY_PEPPER: 'inline-secret', API_KEY_PEPPER_FILE: join(dir, 'redis') })).toThrow(
      'API_KEY_PEPPER and API_KEY_PEPPER_FILE are both set',
    );
    expect(() => withSecretFiles({ VAULT_KEK_KEYS_FILE: join(dir, 'missing') })).toThrow(/VAULT_KEK_KEYS_FILE: cannot read .*missing \(ENOENT\)/);
  });

  it('when the list of secret variables is read, then it names the store, TTL, Kafka and every service secret the deployment ships', () => {
    expect(SECRET_VARIABLES).toEqual(
      expect.arrayContaining([
        'MONGO_URL',
        'REDIS_URL',
        'KAFKA_SASL_PASSWORD',
        'INTERNAL_JWT_PRIVATE_KEY',
        'API_KEY_PEPPER',
        'ADMIN_API_KEY',
        'VAULT_KEK_KEYS',
        'VAULT_FINGERPRINT_KEY',
        'NOTIFIER_SECRET_KEY',
        'PAYMENT_ORCHESTRATOR_SECRET_KEY',
      ]),
    );
  });
});
