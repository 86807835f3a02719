export { createServiceHttp, serviceHttp, errorHandler, notFoundHandler, RouteNotFoundError } from './create-service-http';
export type { ServiceHttp, ServiceHttpOptions, ServiceRoutes } from './create-service-http';
export { answers, reply, renderAnswer } from './answer';
export type { Answer, IdempotencySettings } from './answer';
export {
  IDEMPOTENCY_KEY_HEADER,
  REPLAYED_HEADER,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  IdempotentResponseNotKept,
  InvalidIdempotencyKey,
  parseIdempotencyKey,
  requestRouteOf,
  routeNameOf,
} from './idempotency';
export type { IdempotencyRecordStore } from './idempotency';
export { accessLog } from './access-log';
export { problemResponse, problemBody, PROBLEM_CONTENT_TYPE, problemType } from './problem';
export type { ProblemBody } from './problem';
export {
  authOf,
  bearerTokenOf,
  clientAddressOf,
  acceptRequestId,
  enterRequestContext,
  requireScope,
  requireIssuer,
  requestIdOf,
  requestIdMiddleware,
  internalAuthMiddleware,
  tagServerSpan,
  testClockOf,
  scopeOfRequest,
  REQUEST_ID_ATTRIBUTE,
  TEST_CLOCK_HEADER,
} from './request-context';
export type { RequestAuth, RequestContext } from './request-context';
export {
  rawBodyOf,
  contentTypeGuard,
  assertBodyType,
  JSON_BODY_TYPES,
  SUPPORTED_BODY_TYPES,
  bodyParsers,
  translateBodyError,
  hasBody,
  UnsupportedMediaTypeError,
  PayloadTooLargeError,
} from './body-parsing';
export { parseInput } from './parse-input';
export { parsePageQuery, listResponse } from './pagination';
export type { PageQuery, ListResponse } from './pagination';
export { InternalClient } from './internal-client';
export type { InternalRequest } from './internal-client';
export { startHttpServer } from './http-server';
export type { RunningServer } from './http-server';
export { httpMetrics, setMetricsRoute } from './http-metrics';
