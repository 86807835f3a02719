import { maskPans, scopeOfDocument, type Clock } from '@vaultline/core';
import { checkoutSessionReturnedV1, domainEvent, isAllowedReturnUrl, type BrowserInfoData, type ConsumerAction } from '@vaultline/contracts';
import type { TtlStore } from '@vaultline/ttl';
import type { UnitOfWork } from '@vaultline/store';
import type { CheckoutSessionRepository, TransactionRunner } from '../ports';
import { CheckoutSessionNotFound, framingOriginsOf, type CheckoutSessionRecord } from './checkout-session';

/**
 * 3-D Secure on the hosted page: the orchestrator says the consumer must authenticate
 * (payment.action_required), the page sends them to the issuer's page through this vault (so the page's
 * policy can name the issuer's origin for a form), and they come back to the session's return route, which
 * passes the return parameters the processor named (and nothing else) to the orchestrator.
 */
/** The longest value of a return parameter passed on (Adyen's redirectResult is a few kilobytes). */
const MAX_PARAMETER_LENGTH = 8_192;

export type RecordAuthenticationRequired = (uow: UnitOfWork, paymentId: string, action: ConsumerAction, at: string) => Promise<void>;

/**
 * payment.action_required: the session remembers where the consumer must go. An address the page must not
 * follow (not https, or http off loopback) is dropped: the payment then waits and is abandoned at expiry.
 */
export function recordAuthenticationRequired({ sessions }: { sessions: CheckoutSessionRepository }): RecordAuthenticationRequired {
  return async (uow, paymentId, action, at) => {
    const session = await sessions.findByPaymentId(paymentId);
    if (!session || session.payment_status !== 'processing' || !isAllowedReturnUrl(action.url)) return;
    if (session.authentication && session.authentication.requested_at >= at) return;
    sessions.update(uow, { ...session, authentication: { action, state: 'required', requested_at: at, returned_at: null } });
  };
}

/** Whether the page should take the consumer to the issuer now. */
export function isAuthenticationRequired(session: CheckoutSessionRecord): boolean {
  return session.payment_status === 'processing' && session.authentication?.state === 'required';
}

/** form: `allowedOrigins` may frame it, as they may frame the hosted page (the SDK's iframe goes to the bank too). */
export type AuthenticationStep =
  { kind: 'redirect'; url: string } | { kind: 'form'; url: string; data: Record<string, string>; allowedOrigins: string[] } | { kind: 'page' };

export type StartAuthentication = (sessionId: string) => Promise<AuthenticationStep>;

/** Where `/checkout/{id}/authenticate` sends the consumer: the issuer's page (GET), a form posted to it (POST), or back to the page. */
export function startAuthentication({ sessions }: { sessions: CheckoutSessionRepository }): StartAuthentication {
  return async (sessionId) => {
    const session = await sessions.get(sessionId);
    if (!session || !isAuthenticationRequired(session)) return { kind: 'page' };
    const { action } = session.authentication!;
    return action.method === 'POST'
      ? { kind: 'form', url: action.url, data: action.data, allowedOrigins: framingOriginsOf(session) }
      : { kind: 'redirect', url: action.url };
  };
}

export type ReturnFromAuthentication = (sessionId: string, query: Record<string, unknown>) => Promise<void>;

/**
 * The consumer is back from the issuer's page: the first return passes the named parameters on
 * (checkout.session.returned, in the commit that marks the session returned); a second one (a reload, the
 * back button) or a return the session does not wait for changes nothing. A value that holds a card
 * number is never passed on (nobody's processor puts one there).
 */
export function returnFromAuthentication({
  sessions,
  transaction,
  clock,
}: {
  sessions: CheckoutSessionRepository;
  transaction: TransactionRunner;
  clock: Clock;
}): ReturnFromAuthentication {
  return async (sessionId, query) => {
    const session = await sessions.get(sessionId);
    if (!session || !isAuthenticationRequired(session)) return;
    const parameters = returnParametersOf(session.authentication!.action.return_parameters, query);
    const at = clock.now().toISOString();
    await transaction((uow) => {
      sessions.update(uow, { ...session, authentication: { ...session.authentication!, state: 'returned', returned_at: at } });
      uow.publish(
        domainEvent(checkoutSessionReturnedV1, {
          scope: scopeOfDocument(session),
          occurredAt: clock.now(),
          data: { session_id: session.id, payment_id: session.payment_id, parameters, returned_at: at },
        }),
      );
    }).catch((error: unknown) => {
      // Two returns at once: the other one committed (the session's version moved); this one changes nothing.
      if (!(error instanceof Error && 'code' in error && error.code === 'concurrent_modification')) throw error;
    });
  };
}

/** Only the parameters the processor named, each a string of bounded length that holds no card number. */
export function returnParametersOf(names: readonly string[], query: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (typeof value === 'string' && value.length <= MAX_PARAMETER_LENGTH && maskPans(value) === value) kept[name] = value;
  }
  return kept;
}

export type TestChallenge = (sessionId: string) => Promise<CheckoutSessionRecord>;

/**
 * The simulator's issuer page: test-mode sessions waiting for their consumer only. Anything else is not
 * found, so a live session never shows a page that pretends to be a bank.
 */
export function testChallenge({ sessions }: { sessions: CheckoutSessionRepository }): TestChallenge {
  return async (sessionId) => {
    const session = await sessions.get(sessionId);
    if (!session || session.mode !== 'test' || !isAuthenticationRequired(session)) throw new CheckoutSessionNotFound();
    return session;
  };
}

/** How long the page request's Accept header is kept for the card submission (3-D Secure 2 asks for the browser's). */
const PAGE_ACCEPT_TTL_MS = 60 * 60_000;
const pageAcceptKey = (sessionId: string) => `vault:checkout-page-accept:${sessionId}`;

export type RememberPageAccept = (sessionId: string, accept: string | undefined) => Promise<void>;

/** The Accept header of the browser's request for a known session's page (a fetch from the page sends its own). */
export function rememberPageAccept({ ttl }: { ttl: TtlStore }): RememberPageAccept {
  return async (sessionId, accept) => {
    if (accept) await ttl.set(pageAcceptKey(sessionId), accept.slice(0, 1024), PAGE_ACCEPT_TTL_MS);
  };
}

/** The browser data for the session's completion: what the page read, with the page request's Accept header. */
export async function browserWithAccept(ttl: TtlStore, sessionId: string, browser: SubmittedBrowser | undefined): Promise<BrowserInfoData | undefined> {
  if (!browser) return undefined;
  return { ...browser, accept_header: (await ttl.get(pageAcceptKey(sessionId))) ?? DEFAULT_ACCEPT };
}

/** What the page sends (the address is the vault's reading of the request; the Accept header its page request's). */
export type SubmittedBrowser = Omit<BrowserInfoData, 'accept_header'>;

/** A browser's Accept header for a page, when its page request's is not known (a page served by another instance, since evicted). */
const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
