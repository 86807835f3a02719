// The signed-in frame: the always-visible test/live switch, sign-out, the navigation and the routed page.
import type { Mode } from '@vaultline/node';
import { useEffect, useRef } from 'preact/hooks';
import { useApp } from './app-context';
import { ModeSwitch } from './components/mode-switch';
import { ROUTES } from './routes';
import { matchPath } from './paths';
import { useLocation } from './router';

export function Shell({ onSignOut, onSwitchMode }: { onSignOut: () => Promise<void>; onSwitchMode: (mode: Mode, apiKey?: string) => Promise<void> }) {
  const { session } = useApp();
  const location = useLocation();
  const routes = ROUTES[session.kind];
  const matched = routes.map((route) => ({ route, params: matchPath(route.pattern, location.path) })).find((candidate) => candidate.params);
  // A new page takes the focus (as a page load would put it at the top): the keyboard and a screen reader
  // start from the page just opened, not from the link that opened it. The first page leaves it alone.
  const firstPath = useRef(location.path);
  useEffect(() => {
    if (location.path !== firstPath.current) document.getElementById('main')?.focus();
    firstPath.current = '';
  }, [location.path]);
  const current = routes.filter((route) => route.nav && (route.pattern === '/' ? location.path === '/' : location.path.startsWith(route.pattern))).at(-1);

  return (
    <div class={`shell mode-${session.mode}`}>
      {/* The address's fragment is the router's: the skip link moves the focus without changing it. */}
      <a
        class="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Vaultline</span>
        <span class="who">
          {session.kind === 'operator' ? 'Operator' : session.role === 'dashboard' ? 'Support (read-mostly)' : 'Merchant'}
          {session.name ? `: ${session.name}` : ''}
        </span>
        {session.kind === 'merchant' && <ModeSwitch session={session} onSwitch={onSwitchMode} />}
        <button type="button" class="button" onClick={() => void onSignOut()}>
          Sign out
        </button>
      </header>
      {session.mode === 'live' && (
        <p class="live-banner" role="status">
          Live data: changes here move real money.
        </p>
      )}
      <div class="body">
        <nav class="sidebar" aria-label="Dashboard">
          <ul>
            {routes
              .filter((route) => route.nav)
              .map((route) => (
                <li key={route.pattern}>
                  <a href={`#${route.pattern}`} aria-current={route === current ? 'page' : undefined}>
                    {route.nav}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {matched?.params ? (
            <matched.route.page key={`${session.mode}:${location.path}`} params={matched.params} query={location.query} />
          ) : (
            <>
              <h1>Page not found</h1>
              <p>
                Nothing lives at {location.path}. <a href="#/">Go to the start page</a>.
              </p>
            </>
          )}
        </main>
      </div>
    </div>
  );
}
