// @vaultline/bus/testing: the Bus contract suite, run by every adapter's test (and by any new adapter).
export * from './bus.contract';
