// The SDK clients of a signed-in session: the public merchant and operator APIs, on the page's own origin,
// authenticated by the session cookie and guarded by its CSRF token. No other way into the API exists here.
import { Vaultline, VaultlineAdmin } from '@vaultline/node';
import type { Session } from './session';

export interface Clients {
  merchant: Vaultline;
  admin: VaultlineAdmin;
}

/** A 401 means the session is gone (expired, or signed out in another tab): the shell shows the sign-in. */
export const SESSION_ENDED = 'vaultline:session-ended';

async function fetchNoticingTheEnd(request: Request): Promise<Response> {
  const response = await fetch(request);
  if (response.status === 401) window.dispatchEvent(new Event(SESSION_ENDED));
  return response;
}

/** The browser retries nothing by itself: a person is waiting, and the page shows the error with a retry button. */
const BROWSER_OPTIONS = { maxRetries: 0, timeoutMs: 30_000, fetch: fetchNoticingTheEnd };

export function clientsOf(session: Session): Clients {
  const baseUrl = window.location.origin;
  return {
    merchant: new Vaultline({ csrfToken: session.csrfToken, mode: session.mode }, { ...BROWSER_OPTIONS, baseUrl }),
    admin: new VaultlineAdmin({ csrfToken: session.csrfToken }, { ...BROWSER_OPTIONS, baseUrl }),
  };
}

/** A page of a list route: the envelope every list of both APIs answers. */
export interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}
