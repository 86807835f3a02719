/**
 * The V8 flags the embedded profile's process starts with. `pnpm start` passes them to node (package.json,
 * checked by test/embedded-node-flags.test.ts), and the benches run with them, so they measure what
 * `pnpm start` runs.
 *
 * --max-semi-space-size=64: the young generation's two halves may each grow to 64 MB (Node 20 stops at
 * 16 MB). In this profile every service shares one heap, and each request and event leaves short-lived
 * objects behind (documents serialised and parsed, envelopes, HTTP messages); with 16 MB halves the
 * scavenger runs often and promotes objects that die soon after. Measured in alternating runs of the
 * payments load (docs/benchmarks.md, 2026-11-29 second sitting): 3.78 → 3.38 ms of main thread per payment.
 * Node 24, the runtime the images ship, sizes the young generation so by default (its new space reaches
 * 134 MB without the flag, main thread and workers alike): the flag gives Node 20 what 24 does anyway, and
 * costs on 20 what 24 costs. Idle memory is unchanged (the space grows under load only); under load each
 * thread's young generation may hold up to 128 MB more (peak RSS of the 10,000-card import 460 → 690 MB).
 */
export const EMBEDDED_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
