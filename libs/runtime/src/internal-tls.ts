import { readFileSync } from 'node:fs';

/**
 * Mutual TLS between services: this service's certificate and key, presented as a server and as a
 * client, and the CA that signed every service's certificate — the only one trusted on internal calls.
 */
export interface InternalTls {
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
}

const VARIABLES = ['INTERNAL_TLS_CA_FILE', 'INTERNAL_TLS_CERT_FILE', 'INTERNAL_TLS_KEY_FILE'] as const;

/** INTERNAL_TLS_CA_FILE, INTERNAL_TLS_CERT_FILE, INTERNAL_TLS_KEY_FILE (PEM): all three, or none. */
export function internalTlsFromEnv(env: NodeJS.ProcessEnv): InternalTls | undefined {
  const given = VARIABLES.filter((name) => env[name]);
  if (given.length === 0) return undefined;
  if (given.length < VARIABLES.length) {
    throw new Error(`missing configuration: ${VARIABLES.filter((name) => !env[name]).join(', ')} (mutual TLS needs all of ${VARIABLES.join(', ')})`);
  }
  return { ca: readFileSync(env.INTERNAL_TLS_CA_FILE!), cert: readFileSync(env.INTERNAL_TLS_CERT_FILE!), key: readFileSync(env.INTERNAL_TLS_KEY_FILE!) };
}

/** The listener options of an internal port: only a client with a certificate from the CA gets through the handshake. */
export function mutualTlsServerOptions(tls: InternalTls) {
  return { ca: tls.ca, cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: true };
}
