import type { NextFunction, Request, Response } from 'express';
import { trace } from '@opentelemetry/api';
import { requestIdOf, type ServiceRoutes } from '@vaultline/http';
import { clientAddressOf } from './client-address';
import { MERCHANT_CREDENTIAL_HEADERS, type Upstream, type UpstreamCall } from './upstream';

/** The issuer a service's request context names for every request the gateway hands over. */
const GATEWAY = 'gateway';

/**
 * A service on the gateway's thread (the embedded profile): its routes are mounted behind the edge's
 * policy chain and get the merchant's request itself, with the request context the chain established
 * (merchant, mode, scopes, key id, merchant name, client address, request id, trace) instead of an internal JWT. One
 * HTTP parse, one express stack, and the body read once, by the service's own parser and limit. The
 * service sees the headers it would over HTTP: the merchant's credentials are gone, its Authorization
 * reaches the forwarder as X-Forward-Authorization.
 */
export class InProcessUpstream implements Upstream {
  constructor(private readonly routes: ServiceRoutes) {}

  async serve(req: Request, res: Response, call: UpstreamCall, next: NextFunction): Promise<void> {
    const merchantAuthorization = req.headers.authorization;
    for (const name of MERCHANT_CREDENTIAL_HEADERS) if (req.headers[name] !== undefined) delete req.headers[name];
    if (call.service === 'forwarder' && merchantAuthorization !== undefined) req.headers['x-forward-authorization'] = merchantAuthorization;
    // The admin API's /admin/<service>/<rest> is the service's /admin/<rest>: the router routes req.url.
    if (call.path !== req.url) {
      req.url = call.path;
      req.baseUrl = '';
    }
    this.routes.serve(
      req,
      res,
      {
        issuer: GATEWAY,
        merchantId: call.merchantId,
        scopes: call.scopes,
        mode: call.mode ?? null,
        keyId: call.keyId ?? null,
        merchantName: call.merchantName ?? null,
        clientAddress: clientAddressOf(req),
        requestId: requestIdOf(req),
        trace: trace.getActiveSpan()?.spanContext() ?? null,
      },
      next,
    );
  }

  async close(): Promise<void> {}
}
