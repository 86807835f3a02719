import { createRequire } from 'node:module';

export interface CannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export interface CannonOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  duration: number;
  overallRate?: number;
  workers?: number;
  /** Replace `[<id>]` in the request (headers included) with a fresh id per request. */
  idReplacement?: boolean;
}

/** autocannon, typed: the package ships no type declarations. */
export const autocannon = createRequire(__filename)('autocannon') as (options: CannonOptions) => Promise<CannonResult>;
