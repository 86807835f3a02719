import type { MessagePort } from 'node:worker_threads';
import { RelayTimeoutError } from '@vaultline/core';
import type { RelayedResponse, ServiceRequestChannel } from '@vaultline/runtime';
import type { InProcessApis } from '@vaultline/runtime';
import { deserializeError, type Ask, type ExposedApiMethods, type FromService, type ToService } from './request-port.protocol';

/** How long a call of an in-process API may take on the service's thread (as an internal HTTP call would). */
const API_CALL_TIMEOUT_MS = 30_000;

/** Main thread side: the gateway's channel to the service and proxies of the service's APIs. */
export class ServiceRequestPort {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private closedBecause: Error | undefined;

  constructor(private readonly port: MessagePort) {
    port.on('message', (message: FromService) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(deserializeError(message.error));
    });
    // Only pending calls keep the port referenced: an idle port never holds the process open.
    port.unref();
  }

  readonly channel: ServiceRequestChannel = {
    relay: (request, timeoutMs) => this.send({ kind: 'relay', request }, timeoutMs) as Promise<RelayedResponse>,
  };

  /** Objects with the service's API methods, each call answered by the service thread. */
  apiProxies(methods: ExposedApiMethods): InProcessApis {
    const apis: Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>> = {};
    for (const [api, names] of Object.entries(methods)) {
      apis[api] = Object.fromEntries(names.map((method) => [method, (...args: unknown[]) => this.send({ kind: 'call', api, method, args }, API_CALL_TIMEOUT_MS)]));
    }
    return apis as InProcessApis;
  }

  /** Every call still waiting fails with `reason` (the thread ended); later calls fail at once. */
  close(reason: Error): void {
    if (this.closedBecause) return;
    this.closedBecause = reason;
    for (const waiting of this.pending.values()) waiting.reject(reason);
    this.pending.clear();
    this.port.close();
  }

  private send(message: Ask, timeoutMs: number): Promise<unknown> {
    if (this.closedBecause) return Promise.reject(this.closedBecause);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.port.ref();
      // The caller gives up after timeoutMs; the entry goes with it, and a late answer finds nothing.
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.settled();
        reject(new RelayTimeoutError(timeoutMs));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          this.settled();
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          this.settled();
          reject(error);
        },
      });
      this.port.postMessage({ ...message, id } satisfies ToService);
    });
  }

  private settled(): void {
    if (this.pending.size === 0 && !this.closedBecause) this.port.unref();
  }
}

