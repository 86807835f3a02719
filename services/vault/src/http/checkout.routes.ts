import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response, Router } from 'express';
import { z } from 'zod';
import { NotFoundError } from '@vaultline/core';
import { clientAddressOf, parseInput } from '@vaultline/http';
import type { CheckoutFraming, CheckoutPageStatus, ConfirmStoredCard, SubmitCheckoutCard } from '../domain/checkout/checkout-flow';
import type { SessionLogoImage } from '../domain/branding/manage-branding';
import { toCheckoutStatusView } from './checkout-status.view';

const PUBLIC_DIR = join(__dirname, 'public');
const sessionId = z.string().regex(/^[0-9a-fA-F-]{36}$/, { message: 'The session id must be a UUID.' });
const cardBody = z.object({
  card: z.object({ number: z.unknown(), exp_month: z.unknown(), exp_year: z.unknown().optional(), cvc: z.unknown(), name: z.unknown().optional() }),
});

/** The security code only when the session asks for it; checked against the stored card's scheme. */
const storedCardBody = z.object({ security_code: z.unknown().optional() });

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
  checkoutPageStatus: CheckoutPageStatus;
  checkoutFraming: CheckoutFraming;
  sessionLogoImage: SessionLogoImage;
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
    const { allowedOrigins, imageOrigins } = await framingOf(id, req.get('sec-fetch-dest') === 'iframe' || req.query.embedded === '1');
    res.setHeader('Content-Security-Policy', pagePolicy(allowedOrigins, imageOrigins));
    // For browsers without frame-ancestors; with origins allowed, the CSP alone decides.
    if (allowedOrigins.length === 0) res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    send(res, assets.page, 'no-store');
  });

  router.get('/sdk/v1/checkout.js', (_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    send(res, assets.sdk, 'public, max-age=300');
  });

  router.post('/sessions/:sessionId/card', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const body = parseInput(cardBody, req.body);
    const status = await useCases.submitCheckoutCard({ sessionId: id, clientAddress: clientAddressOf(req), card: body.card });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(toCheckoutStatusView(status));
  });

  /** The consumer confirms the stored card the session shows (earlier payment interface). */
  router.post('/sessions/:sessionId/stored-card', async (req, res) => {
    const id = parseInput(sessionId, req.params.sessionId);
    const body = parseInput(storedCardBody, req.body ?? {});
    const status = await useCases.confirmStoredCard({ sessionId: id, clientAddress: clientAddressOf(req), securityCode: body.security_code });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json(toCheckoutStatusView(status));
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
