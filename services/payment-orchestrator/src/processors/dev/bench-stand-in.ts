/**
 * What a processor's folder gives the payments bench (bench/payments.bench.ts), in `<id>/dev/<id>.bench.ts`
 * as `benchStandIn`: the bench runs its load on every processor whose folder has one, naming none.
 */
export interface BenchStandIn {
  /** The credentials of the account the bench adds at the processor: the ones its stand-in accepts. */
  credentials: Record<string, string>;
  /** Starts the stand-in on loopback, answering after a delay drawn from `delayMs` (like a real processor) or at once. */
  start(options: { delayMs?: [number, number] }): Promise<{ baseUrl: string; webhookUrl: string | null; stop(): Promise<void> }>;
}
