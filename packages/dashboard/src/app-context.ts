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
