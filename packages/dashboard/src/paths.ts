// The dashboard's page addresses (#/payments/pay_1?status=failed): pure, so the router and the tests share them.

/** The href of a dashboard page, with its query (empty values left out). */
export function hrefOf(path: string, query: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return `#${path}${search ? `?${search}` : ''}`;
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
