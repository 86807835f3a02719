// Routing in the URL's fragment (#/payments/pay_1?status=failed): the gateway serves one index.html, and a
// reload or a shared link opens the same page. The fragment never holds a key or a secret.
import { useEffect, useState } from 'preact/hooks';

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
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return location;
}

/** The href of a dashboard page, with its query (empty values left out). */
export function hrefOf(path: string, query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return `#${path}${search ? `?${search}` : ''}`;
}

export function navigate(path: string, query: Record<string, string | undefined> = {}): void {
  window.location.hash = hrefOf(path, query);
}

/** Matches a pattern such as /payments/:id against a path: the named parts, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = have[index] ?? '';
    if (part.startsWith(':')) {
      if (!value) return null;
      params[part.slice(1)] = decodeURIComponent(value);
    } else if (part !== value) return null;
  }
  return params;
}
