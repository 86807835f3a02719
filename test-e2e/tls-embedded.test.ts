import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';

/** A self-signed certificate for 127.0.0.1 and localhost (node:crypto cannot make X.509 certificates). */
function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}

/** A GET over https trusting `ca` only. */
function httpsGet(url: string, ca: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((done, fail) => {
    const req = httpsRequest(url, { ca, headers }, (res) => {
      res.resume();
      done({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.once('error', fail);
    req.end();
  });
}

describe('the gateway with TLS_CERT_FILE and TLS_KEY_FILE (embedded profile)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-tls-'));
  let system: EmbeddedSystem;
  let ca: Buffer;

  beforeAll(async () => {
    const { certFile, keyFile } = selfSignedCertificate(dir);
    ca = readFileSync(certFile);
    system = await startEmbedded({
      dataDir: join(dir, 'data'),
      port: 0,
      env: {
        LOG_LEVEL: 'silent',
        EMBEDDED_SERVICE_THREADS: 'none',
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
        BOOTSTRAP_API_KEY: 'sk_test_tls_bootstrap_key_0123456789',
        ADMIN_API_KEY: 'admin_tls_test_key_0123456789abcdef0',
      },
    });
  }, 30_000);

  afterAll(async () => {
    await system?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when called over https with the certificate trusted, then it answers, with HSTS, and a merchant request works', async () => {
    expect(system.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await httpsGet(`${system.baseUrl}/health`, ca);
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect((await httpsGet(`${system.baseUrl}/tokens`, ca, { 'x-api-key': 'sk_test_tls_bootstrap_key_0123456789' })).status).toBe(200);
  });

  it('when called over plain http, then no HTTP answer comes back', async () => {
    const plain = system.baseUrl.replace('https://', 'http://');
    const outcome = await fetch(`${plain}/health`).then(
      (answer) => answer.status,
      (error: Error) => error.name,
    );
    expect(typeof outcome).toBe('string');
  });
});
