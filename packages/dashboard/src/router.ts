// Routing in the URL's fragment (#/payments/pay_1?status=failed): the gateway serves one index.html, and a
// reload or a shared link opens the same page. The fragment never holds a key or a secret.
import { useEffect, useState } from 'preact/hooks';
import { hrefOf } from './paths';

/** What a page is given: the route's parameters (`:id`) and the fragment's query. */
export interface PageProps {
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

function currentLocation(): Location {
  const fragment = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', search = ''] = fragment.split('?', 2);
  return { path, query: new URLSearchParams(search) };
}

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const changed = () => setLocation(currentLocation());
    window.addEventListener('hashchange', changed);
    // A change between the first render and now fired no event this listener heard.
    changed();
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return location;
}

export function navigate(path: string, query: Record<string, string | undefined> = {}): void {
  window.location.hash = hrefOf(path, query);
}
