// Test infrastructure shared by every package: throwaway servers and containers. Each port's
// contract suite lives with its port (@vaultline/bus/testing, @vaultline/store/testing, @vaultline/ttl/testing).
export * from './redis-server';
export * from './containers';
export * from './kafka-broker';
