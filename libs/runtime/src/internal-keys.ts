import { generateInternalKeyPair } from '@vaultline/auth';
import { SERVICE_NAMES, type ServiceName } from './service-runtime';

export interface ServiceKeys {
  privateKeys: Record<ServiceName, string>;
  publicKeys: Record<ServiceName, string>;
}

/**
 * One ES256 key pair per service. Each service signs its internal calls with its own private key and
 * trusts the others' public keys, so no service can impersonate another (least privilege: the vault
 * accepts detokenization only from the forwarder's key). Embedded and local profiles generate them
 * at start — internal tokens live 60 s, so nothing needs them across restarts.
 */
export function generateServiceKeys(): ServiceKeys {
  const privateKeys = {} as Record<ServiceName, string>;
  const publicKeys = {} as Record<ServiceName, string>;
  for (const service of SERVICE_NAMES) {
    const pair = generateInternalKeyPair();
    privateKeys[service] = pair.privateKeyPem;
    publicKeys[service] = pair.publicKeyPem;
  }
  return { privateKeys, publicKeys };
}
