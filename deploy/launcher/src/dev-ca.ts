import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceCertificate {
  certFile: string;
  keyFile: string;
}

/**
 * A development CA and, signed by it, a certificate per service for mutual TLS between services
 * (server and client use, named after the service, localhost and 127.0.0.1). Made with the `openssl`
 * command: node:crypto cannot write X.509 certificates. Valid `days` (30 by default); a production
 * deployment brings certificates from its own PKI or service mesh instead.
 */
export function generateDevCertificates(dir: string, services: readonly string[], days = 30): { caFile: string; services: Record<string, ServiceCertificate> } {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const caFile = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key.pem');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', '-x509', ...ec, '-days', String(days), '-subj', '/CN=Vaultline development CA', '-keyout', caKey, '-out', caFile]);
  const result: Record<string, ServiceCertificate> = {};
  for (const service of services) {
    const keyFile = join(dir, `${service}.key.pem`);
    const certFile = join(dir, `${service}.pem`);
    const request = join(dir, `${service}.csr`);
    const extensions = join(dir, `${service}.ext`);
    writeFileSync(extensions, `subjectAltName=DNS:${service},DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n`);
    openssl(['req', ...ec, '-subj', `/CN=${service}`, '-keyout', keyFile, '-out', request]);
    openssl([
      'x509',
      '-req',
      '-in',
      request,
      '-CA',
      caFile,
      '-CAkey',
      caKey,
      '-CAcreateserial',
      '-days',
      String(days),
      '-extfile',
      extensions,
      '-out',
      certFile,
    ]);
    rmSync(request);
    rmSync(extensions);
    chmodSync(keyFile, 0o600);
    result[service] = { certFile, keyFile };
  }
  chmodSync(caKey, 0o600);
  return { caFile, services: result };
}

function openssl(args: string[]): void {
  try {
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new Error(`openssl ${args[0]} failed (mutual TLS between services needs the openssl command): ${(error as Error).message}`);
  }
}
