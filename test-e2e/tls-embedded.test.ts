import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { startEmbedded, type EmbeddedSystem } from '@vaultline/launcher';

/** A self-signed certificate for 127.0.0.1 and localhost (node:crypto cannot make X.509 certificates). */
function selfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' });
  return { certFile, keyFile };
}

describe('the gateway with TLS_CERT_FILE and TLS_KEY_FILE (embedded profile)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vaultline-tls-'));
  let system: EmbeddedSystem;
  let agent: Agent;

  beforeAll(async () => {
    const { certFile, keyFile } = selfSignedCertificate(dir);
    agent = new Agent({ connect: { ca: readFileSync(certFile) } });
    system = await startEmbedded({
      dataDir: join(dir, 'data'),
      port: 0,
      env: { LOG_LEVEL: 'silent', EMBEDDED_SERVICE_THREADS: 'none', TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, BOOTSTRAP_API_KEY: 'sk_test_tls_bootstrap_key_0123456789', ADMIN_API_KEY: 'admin_tls_test_key_0123456789' },
    });
  }, 30_000);

  afterAll(async () => {
    await system?.stop();
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when called over https with the certificate trusted, then it answers, with HSTS, and a merchant request works', async () => {
    expect(system.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await request(`${system.baseUrl}/health`, { dispatcher: agent });
    expect(health.statusCode).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    await health.body.dump();
    const tokens = await request(`${system.baseUrl}/tokens`, { dispatcher: agent, headers: { 'x-api-key': 'sk_test_tls_bootstrap_key_0123456789' } });
    expect(tokens.statusCode).toBe(200);
    await tokens.body.dump();
  });

  it('when called over plain http, then no HTTP answer comes back', async () => {
    const plain = system.baseUrl.replace('https://', 'http://');
    const outcome = await request(`${plain}/health`).then(
      (answer) => answer.statusCode,
      (error: Error) => error.name,
    );
    expect(typeof outcome).toBe('string');
  });
});
