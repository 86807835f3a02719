import type { MessagePort } from 'node:worker_threads';
import type { ServiceName } from '@vaultline/runtime';
import type { ExposedApiMethods } from './request-port.protocol';

/** What a service thread is created with (structured-cloned into the worker): enough to load its modules. */
export interface ServiceThreadData {
  /** The module the bootstrap loads (service-thread.worker.ts). */
  entry: string;
  service: ServiceName;
}

/** What the thread's service is built from, sent once the launcher knows it (see 'start'). */
export interface ServiceThreadConfig {
  /** The services' environment, as the launcher resolved it (DATA_DIR, PUBLIC_BASE_URL…). */
  env: Record<string, string>;
  storeUrl: string;
  /** An SQLite bus file: the only bus both threads can share. */
  busUrl: string;
  /** The TTL store (security codes, when the vault runs on the thread); `memory://` keeps it in the thread. */
  ttlUrl: string;
  logLevel: string;
  privateKeyPem: string;
  trustedPublicKeys: Record<string, string>;
}

export type ToServiceThread =
  /** `requests` carries merchant requests and in-process API calls to the service (see request-port.ts). */
  | { type: 'start'; config: ServiceThreadConfig; serviceUrls: Record<ServiceName, string>; publicBaseUrl: string; requests: MessagePort }
  | { type: 'stop' }
  /** Asks for the thread's used heap, after a full collection when `gc` (and --expose-gc). */
  | { type: 'heap'; gc: boolean };

export type FromServiceThread =
  | { type: 'listening'; url: string }
  /** The service serves; `apis` names the in-process APIs it offers and their methods. */
  | { type: 'started'; apis: ExposedApiMethods }
  | { type: 'stopped' }
  | { type: 'heap'; used: number }
  /** A finished log line of the thread's service, for the main thread to write where its own go. */
  | { type: 'log'; line: string }
  | { type: 'failed'; message: string; stack?: string };
