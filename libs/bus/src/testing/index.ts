// @vaultline/bus/testing: the Bus contract suite, run by every adapter's test (and by any new adapter).
export * from './bus.contract';
// The duplicate-delivery harness: every consumer's test runs its messages two or three times, out of order.
export * from './redelivering-bus';
export * from './duplicate-delivery';
