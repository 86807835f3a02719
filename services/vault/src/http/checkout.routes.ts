import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response, Router } from 'express';
import { browserInfoSchema } from '@vaultline/contracts';
import { z } from 'zod';
import { NotFoundError } from '@vaultline/core';
import { clientAddressOf, parseInput } from '@vaultline/http';
import type { AbandonCheckoutSession, CheckoutFraming, CheckoutPageStatus, ConfirmStoredCard, SubmitCheckoutCard } from '../domain/checkout/checkout-flow';
import type { SessionLogoImage } from '../domain/branding/manage-branding';
import { toCheckoutStatusView } from './checkout-status.view';
import type {
  RememberPageAccept,
  ReturnFromAuthentication,
  StartAuthentication,
  SubmittedBrowser,
  TestChallenge,
} from '../domain/checkout/checkout-authentication';
import { issuerFormPage, issuerFormPolicy, testChallengePage, testChallengePolicy } from './checkout-authentication.pages';
import { TooManyAttempts, framingOriginsOf } from '../domain/checkout/checkout-session';

const PUBLIC_DIR = join(__dirname, 'public');
const sessionId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The session id must be a UUID.' });
/** What the page reads of the browser for 3-D Secure 2; the accept header and the address are read here. */
const browserBody = browserInfoSchema.omit({ accept_header: true, ip_address: true });
const cardBody = z.object({
  card: z.object({ number: z.unknown(), exp_month: z.unknown(), exp_year: z.unknown().optional(), cvc: z.unknown(), name: z.unknown().optional() }),
  browser: browserBody.optional(),
});

/** The security code only when the session asks for it; checked against the stored card's scheme. */
const storedCardBody = z.object({ security_code: z.unknown().optional(), browser: browserBody.optional() });

/** The browser as 3-D Secure 2 needs it: what the page read and the client's address (the Accept header: its page request's). */
function browserOf(req: Request, sent: z.infer<typeof browserBody> | undefined): SubmittedBrowser | undefined {
  return sent ? { ...sent, ip_address: clientAddressOf(req) || null } : undefined;
}

interface Asset {
  body: Buffer;
  type: string;
}

function asset(file: string, type: string): Asset {
  return { body: readFileSync(join(PUBLIC_DIR, file)), type };
}

/** Loaded once; the page and the SDK are static (no templating: the page reads its session id from the URL). */
function loadAssets() {
  return {
    page: asset('checkout.html', 'text/html; charset=utf-8'),
    files: {
      'checkout.css': asset('checkout.css', 'text/css; charset=utf-8'),
      'checkout-page.js': asset('checkout-page.js', 'text/javascript; charset=utf-8'),
      'card-brand.js': asset('card-brand.js', 'text/javascript; charset=utf-8'),
      'checkout-messages.js': asset('checkout-messages.js', 'text/javascript; charset=utf-8'),
      'checkout-redirect.js': asset('checkout-redirect.js', 'text/javascript; charset=utf-8'),
      'favicon.svg': asset('favicon.svg', 'image/svg+xml'),
    } as Record<string, Asset>,
    sdk: asset('sdk/checkout.js', 'text/javascript; charset=utf-8'),
  };
}

/**
 * The page runs only our own scripts, and only the session's allowed origins may frame it: any other
 * framing page would hear the page's messages and could dress it up (clickjacking).
 */
export function pagePolicy(allowedOrigins: readonly string[], imageOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    // The merchant's logo host, when its logo is an https URL: no other image source.
    ["img-src 'self' data:", ...imageOrigins].join(' '),
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${allowedOrigins.length > 0 ? allowedOrigins.join(' ') : "'none'"}`,
  ].join('; ');
}

/** How long a framed page waits for its session: the SDK may mount before checkout.session.opened arrives. */
const FRAMED_WAIT = { attempts: 12, intervalMs: 250 };

/** A card submission over a limit says when to try again, in the header as in the body (`retry_after`). */
async function withRetryAfter<T>(res: Response, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof TooManyAttempts) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    throw error;
  }
}

function send(res: Response, item: Asset, cache: string): void {
  res.setHeader('Content-Type', item.type);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', cache);
  res.send(item.body);
}

/** Public routes (scope public): hosted page, SDK, card submission and status, keyed by session id. */
export interface CheckoutRouteUseCases {
  submitCheckoutCard: SubmitCheckoutCard;
  confirmStoredCard: ConfirmStoredCard;
  abandonCheckoutSession: AbandonCheckoutSession;
  checkoutPageStatus: CheckoutPageStatus;
  checkoutFraming: CheckoutFraming;
  sessionLogoImage: SessionLogoImage;
  startAuthentication: StartAuthentication;
  returnFromAuthentication: ReturnFromAuthentication;
  testChallenge: TestChallenge;
  rememberPageAccept: RememberPageAccept;
}

export function checkoutRoutes(router: Router, useCases: CheckoutRouteUseCases): void {
  const assets = loadAssets();

  router.get('/checkout/assets/:name', (req, res) => {
    const item = assets.files[String(req.params.name)];
    if (!item) throw new NotFoundError('asset');
    send(res, item, 'public, max-age=300');
  });

  /** A framed page's session that has not arrived yet is waited for briefly; a top-level page polls for it itself. */
  const framingOf = async (id: string, framed: boolean) => {
    for (let attempt = 1; ; attempt++) {
      const framing = await useCases.checkoutFraming(id);
      if (framing.known || !framed || attempt >= FRAMED_WAIT.attempts) return framing;
      await new Promise((resolve) => setTimeout(resolve, FRAMED_WAIT.intervalMs));
    }
  };

  router.get('/checkout/:sessionId', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const { known, allowedOrigins, imageOrigins } = await framingOf(id, req.get('sec-fetch-dest') === 'iframe' || req.query.embedded === '1');
    if (known) await useCases.rememberPageAccept(id, req.get('accept'));
    res.setHeader('Content-Security-Policy', pagePolicy(allowedOrigins, imageOrigins));
    // For browsers without frame-ancestors; with origins allowed, the CSP alone decides.
    if (allowedOrigins.length === 0) res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    send(res, assets.page, 'no-store');
  });

  /**
   * 3-D Secure: the page sends the consumer here to reach the issuer's page. GET: a redirect; POST: a form
   * this page submits, under a policy that lets forms go to the issuer's origin only. Nothing of the card is
   * in either; a session that is not waiting goes back to its page.
   */
  router.get('/checkout/:sessionId/authenticate', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const step = await useCases.startAuthentication(id);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (step.kind === 'page') return res.redirect(303, `/checkout/${id}`);
    if (step.kind === 'redirect') return res.redirect(303, step.url);
    res.setHeader('Content-Security-Policy', issuerFormPolicy(step.url, step.allowedOrigins));
    if (step.allowedOrigins.length === 0) res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.send(issuerFormPage(step.url, step.data));
  });

  /**
   * Where the issuer's page sends the consumer back (the return address processors are given): the
   * parameters the processor named go to the orchestrator, then the consumer sees the page again, without
   * them in the address bar.
   */
  router.get('/checkout/:sessionId/return', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    await useCases.returnFromAuthentication(id, req.query as Record<string, unknown>);
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    // Back in the SDK's iframe, the page is the embedded one again (it tells its parent, it does not leave for return_url).
    res.redirect(303, req.get('sec-fetch-dest') === 'iframe' ? `/checkout/${id}?embedded=1` : `/checkout/${id}`);
  });

  /** The simulator's issuer page (test-mode sessions waiting for their consumer): "Complete" or "Fail". */
  router.get('/checkout/:sessionId/test-challenge', async (req, res) => {
    const session = await useCases.testChallenge(parseInput(sessionId, req.params.sessionId));
    const allowedOrigins = framingOriginsOf(session);
    res.setHeader('Content-Security-Policy', testChallengePolicy(allowedOrigins));
    if (allowedOrigins.length === 0) res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.send(testChallengePage(session));
  });

  router.get('/sdk/v1/checkout.js', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    send(res, assets.sdk, 'public, max-age=300');
  });

  router.post('/sessions/:sessionId/card', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const body = parseInput(cardBody, req.body);
    const status = await withRetryAfter(res, () =>
      useCases.submitCheckoutCard({ sessionId: id, clientAddress: clientAddressOf(req), card: body.card, browser: browserOf(req, body.browser) }),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(toCheckoutStatusView(status));
  });

  /** The consumer confirms the stored card the session shows (earlier payment interface). */
  router.post('/sessions/:sessionId/stored-card', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const body = parseInput(storedCardBody, req.body ?? {});
    const status = await withRetryAfter(res, () =>
      useCases.confirmStoredCard({
        sessionId: id,
        clientAddress: clientAddressOf(req),
        securityCode: body.security_code,
        browser: browserOf(req, body.browser),
      }),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(toCheckoutStatusView(status));
  });

  /**
   * The consumer leaves the page while it waits for a card (after a failed card: "Return to the shop"): the
   * session closes and its payment fails at once, so the shop reads a final status. No body.
   */
  router.post('/sessions/:sessionId/abandon', async (req, res) => {
    const status = await useCases.abandonCheckoutSession(parseInput(sessionId, req.params.sessionId));
    res.setHeader('Cache-Control', 'no-store');
    res.json(toCheckoutStatusView(status));
  });

  router.get('/sessions/:sessionId/status', async (req, res) => {
    const status = await useCases.checkoutPageStatus(parseInput(sessionId, req.params.sessionId));
    res.setHeader('Cache-Control', 'no-store');
    res.json(toCheckoutStatusView(status));
  });

  /**
   * The merchant's uploaded logo (PNG, JPEG or WebP, its type sniffed from its bytes at upload). Served as
   * an image only: no sniffing, no script or style if opened on its own, not for other sites' pages.
   */
  router.get('/sessions/:sessionId/logo', async (req, res) => {
    const logo = await useCases.sessionLogoImage(parseInput(sessionId, req.params.sessionId));
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    send(res, { body: logo.body, type: logo.contentType }, 'private, max-age=300');
  });
}
