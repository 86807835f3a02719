import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDevCertificates, startLocal, type LocalSystem } from '@vaultline/launcher';

const apiKey = 'sk_test_mtls_local_key_0123456789';

/** GET over https with the given TLS options: the status, or the error's code when the handshake failed. */
function httpsStatus(url: string, options: { ca?: Buffer; cert?: Buffer; key?: Buffer }): Promise<number | string> {
  return new Promise((done) => {
    const req = httpsRequest(url, { ...options }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end();
  });
}

describe('mutual TLS between the services (local profile)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vaultline-mtls-'));
  let system: LocalSystem;

  beforeAll(async () => {
    system = await startLocal({
      dataDir,
      port: 0,
      stdio: 'files',
      env: { BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn', ADMIN_API_KEY: 'admin_mtls_local_key_0123456789abcdef' },
    });
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a merchant tokenizes and the gateway checks readiness, then gateway → vault and the health checks of every service succeed over mutual TLS', async () => {
    expect(Object.values(system.serviceUrls).every((url) => url.startsWith('https://'))).toBe(true);
    const created = await fetch(`${system.baseUrl}/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ card: { number: '4242424242424242', exp_month: 12, exp_year: 2030 } }),
    });
    expect(created.status).toBe(201);
    expect((await fetch(`${system.baseUrl}/ready`)).status).toBe(200);
  });

  it('when the vault port is called in plain HTTP, without a client certificate, or with a certificate from another CA, then the connection is refused before any HTTP', async () => {
    const vault = system.serviceUrls.vault;
    const tls = system.internalTls!;
    const ca = readFileSync(tls.caFile);
    const plain = await fetch(`${vault.replace('https://', 'http://')}/health`).then(
      (r) => r.status,
      (error: Error) => error.name,
    );
    expect(typeof plain).toBe('string');
    expect(typeof (await httpsStatus(`${vault}/health`, { ca }))).toBe('string');
    const stranger = generateDevCertificates(join(dataDir, 'stranger-ca'), ['intruder']);
    const strangerCert = { cert: readFileSync(stranger.services.intruder!.certFile), key: readFileSync(stranger.services.intruder!.keyFile) };
    expect(typeof (await httpsStatus(`${vault}/health`, { ca, ...strangerCert }))).toBe('string');
    // With the launcher's certificate the handshake passes, and the service answers.
    expect(await httpsStatus(`${vault}/health`, { ca, cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) })).toBe(200);
  });
});
