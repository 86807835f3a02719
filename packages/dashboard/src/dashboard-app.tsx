// The dashboard's root: asks the server for the session the cookie holds, shows the sign-in without one,
// and the signed-in shell with one. The key typed at sign-in lives in the form's state until sent, no longer.
import type { Mode } from '@vaultline/node';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { SESSION_ENDED, clientsOf } from './api/clients';
import { currentSession, signOut, switchMode, type Session } from './api/session';
import { App } from './app-context';
import { ErrorState, Loading } from './components/states';
import { SignInPage } from './pages/sign-in';
import { matchPath } from './paths';
import { ROUTES } from './routes';
import { Shell } from './shell';

type Boot =
  { status: 'checking' } | { status: 'failed'; error: unknown } | { status: 'signed-out'; notice?: string } | { status: 'signed-in'; session: Session };

export function DashboardApp() {
  const [boot, setBoot] = useState<Boot>({ status: 'checking' });
  const check = () => {
    setBoot({ status: 'checking' });
    currentSession().then(
      (session) => setBoot(session ? { status: 'signed-in', session } : { status: 'signed-out' }),
      (error: unknown) => setBoot({ status: 'failed', error }),
    );
  };
  useEffect(check, []);

  // A request refused for want of a session (it expired, or was signed out elsewhere) brings the sign-in back.
  useEffect(() => {
    const expired = () => setBoot({ status: 'signed-out', notice: 'Your session ended. Sign in again.' });
    window.addEventListener(SESSION_ENDED, expired);
    return () => window.removeEventListener(SESSION_ENDED, expired);
  }, []);

  const session = boot.status === 'signed-in' ? boot.session : null;
  const context = useMemo(
    () =>
      session && {
        session,
        clients: clientsOf(session),
        refreshSession: async () => {
          const fresh = await currentSession();
          setBoot(fresh ? { status: 'signed-in', session: fresh } : { status: 'signed-out' });
        },
      },
    [session],
  );

  const signedIn = (fresh: Session) => {
    // Back to the page the session ended on when this session has it; else to the start page (an operator
    // signing in where a merchant's page was open).
    const path = window.location.hash.replace(/^#/, '').split('?')[0] || '/';
    if (!ROUTES[fresh.kind].some((route) => matchPath(route.pattern, path))) window.location.hash = '#/';
    setBoot({ status: 'signed-in', session: fresh });
  };

  if (boot.status === 'checking') return <Loading what="the dashboard" />;
  if (boot.status === 'failed') return <ErrorState error={boot.error} retry={check} />;
  if (boot.status === 'signed-out' || !context) return <SignInPage notice={boot.status === 'signed-out' ? boot.notice : undefined} onSignedIn={signedIn} />;

  const onSignOut = async () => {
    await signOut(context.session).catch(() => undefined);
    setBoot({ status: 'signed-out', notice: 'You are signed out.' });
    window.location.hash = '#/';
  };
  const onSwitchMode = async (mode: Mode, apiKey?: string) => {
    const switched = await switchMode(context.session, mode, apiKey);
    setBoot({ status: 'signed-in', session: switched });
  };
  return (
    <App.Provider value={context}>
      <Shell onSignOut={onSignOut} onSwitchMode={onSwitchMode} />
    </App.Provider>
  );
}
