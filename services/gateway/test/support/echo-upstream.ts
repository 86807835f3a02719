import { InternalTokenVerifier } from '@vaultline/auth';
import { createLogger } from '@vaultline/logger';
import type { Express } from 'express';
import { authOf, createServiceHttp, rawBodyOf, startHttpServer, type RequestContext, type RunningServer } from '@vaultline/http';
import type { ServiceName } from '@vaultline/runtime';
import { PUBLIC_BASE_URL } from './http-call';

export interface EchoBody {
  service: string;
  auth: RequestContext;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Lower-cased names from req.rawHeaders: nothing stripped may hide there either. */
  rawHeaderNames: string[];
  raw: string | null;
  /** Counts the requests this upstream has served: a replayed answer repeats it, a second run does not. */
  served: number;
}

export type EchoUpstream = RunningServer & { app: Express };

/**
 * A real service built with createServiceHttp that answers with what it received: the verified
 * internal identity, the path, the headers and the raw body. Some paths behave specially; the test
 * headers X-Echo-Delay-Ms and X-Echo-Status make it slow or answer another status.
 */
export async function startEchoUpstream(service: ServiceName, gatewayPublicKeyPem: string): Promise<EchoUpstream> {
  let served = 0;
  const app = createServiceHttp({
    publicBaseUrl: PUBLIC_BASE_URL,
    service,
    verifier: new InternalTokenVerifier(service, { gateway: gatewayPublicKeyPem }),
    logger: createLogger({ service, level: 'silent' }),
    bodyLimit: '2mb',
    routes: (router) => {
      router.get('/checkout/page', (_req, res) => {
        res.type('html').send('<html><body>checkout</body></html>');
      });
      router.get('/tokens/crash', () => {
        throw new Error('upstream exploded');
      });
      router.all('/{*rest}', async (req, res) => {
        const delayMs = Number(req.get('x-echo-delay-ms') ?? 0);
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        const body: EchoBody = {
          service,
          auth: authOf(req),
          method: req.method,
          url: req.originalUrl,
          headers: req.headers,
          rawHeaderNames: req.rawHeaders.filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase()),
          raw: rawBodyOf(req)?.toString('utf8') ?? null,
          served: ++served,
        };
        res.status(Number(req.get('x-echo-status') ?? (req.method === 'POST' ? 201 : 200))).json(body);
      });
    },
  });
  return { ...(await startHttpServer(app)), app };
}
