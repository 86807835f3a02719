import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Clients } from './api/clients';
import type { Session } from './api/session';

export interface AppContext {
  session: Session;
  clients: Clients;
  /** Tells the shell a change happened that other parts show (a new key, a changed mode). */
  refreshSession: () => Promise<void>;
}

export const App = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const app = useContext(App);
  if (!app) throw new Error('useApp outside a signed-in shell');
  return app;
}

/**
 * Whether the session may change the merchant's set-up (processor accounts, webhook endpoints, the flow
 * matrix): a `dashboard` key may not (the gateway refuses it; the pages do not offer it). Capture, cancel,
 * refund and replay stay offered to every merchant session.
 */
export function useMayConfigure(): boolean {
  return useApp().session.role !== 'dashboard';
}
