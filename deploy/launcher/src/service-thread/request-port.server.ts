import type { MessagePort } from 'node:worker_threads';
import type { RequestListener } from 'node:http';
import type { InProcessApis } from '@vaultline/runtime';
import { exchangeInMemory } from './in-memory-exchange';
import { serializeError, type ExposedApiMethods, type FromService, type ToService } from './request-port.protocol';

/** The client address the service sees for a relayed request: the gateway's, as over loopback HTTP. */
const GATEWAY_ADDRESS = '127.0.0.1';

/** Service thread side: answers relayed requests with the service's HTTP app and calls with its APIs. */
export function serveRequestPort(port: MessagePort, http: RequestListener, apis: InProcessApis): void {
  port.on('message', (message: ToService) => {
    void answer(message).then(
      (value) => port.postMessage({ id: message.id, ok: true, value } satisfies FromService),
      (error: unknown) => port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies FromService),
    );
  });

  async function answer(message: ToService): Promise<unknown> {
    if (message.kind === 'relay') return exchangeInMemory(http, message.request, GATEWAY_ADDRESS);
    const api = (apis as Record<string, Record<string, unknown> | undefined>)[message.api];
    const method = api?.[message.method];
    if (typeof method !== 'function') throw new Error(`no in-process API ${message.api}.${message.method}`);
    return (method as (...args: unknown[]) => Promise<unknown>).apply(api, message.args);
  }
}

/** Lists the function members of each exposed API object (own and inherited, Object's excepted). */
export function exposedApiMethods(apis: InProcessApis): ExposedApiMethods {
  const methods: ExposedApiMethods = {};
  for (const [name, api] of Object.entries(apis) as Array<[string, object | undefined]>) {
    if (!api) continue;
    const found = new Set<string>();
    for (let level: object | null = api; level && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
      for (const key of Object.getOwnPropertyNames(level)) {
        if (key !== 'constructor' && typeof (api as Record<string, unknown>)[key] === 'function') found.add(key);
      }
    }
    methods[name] = [...found];
  }
  return methods;
}

