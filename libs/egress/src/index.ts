export * from './egress-errors';
export { isPublicAddress, isIpLiteral, parseIPv6 } from './ip-address';
export { type HostResolver, systemResolver } from './address-guard';
export { checkPublicUrl, parseEgressUrl, type UrlPolicy } from './check-public-url';
export { sanitizeOutgoingHeaders } from './outgoing-headers';
export {
  createEgressClient,
  hostPortKey,
  type EgressClient,
  type EgressClientOptions,
  type EgressRequest,
  type EgressResponse,
} from './egress-client';
