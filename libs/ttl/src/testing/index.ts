// @vaultline/ttl/testing: the TtlStore contract suite, run by every adapter's test.
export * from './ttl.contract';
