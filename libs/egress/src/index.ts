export * from './egress-errors';
export { isPublicAddress, isIpLiteral, isLoopbackAddress, isLoopbackHostname, parseIPv6 } from './ip-address';
export { type AddressPolicy, type HostResolver, systemResolver } from './address-guard';
export { checkPublicUrl, parseEgressUrl, type UrlPolicy } from './check-public-url';
export { sanitizeOutgoingHeaders } from './outgoing-headers';
export { createEgressClient, hostPortKey, type EgressClient, type EgressClientOptions, type EgressRequest, type EgressResponse } from './egress-client';
export { parseEgressProxy, type EgressProxy } from './proxy-tunnel';
