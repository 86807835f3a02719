/** What the pages under /docs share: escaping, the top navigation and the page frame. */

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export type DocsSection = 'reference' | 'admin' | 'guides' | 'errors';

const LINKS: Array<[DocsSection, string, string]> = [
  ['reference', '/docs', 'API reference'],
  ['guides', '/docs/guides', 'Guides'],
  ['errors', '/docs/errors', 'Errors'],
  ['admin', '/docs/admin', 'Admin API'],
];

/** The bar at the top of every page under /docs. */
export function docsNavigation(current: DocsSection): string {
  const links = LINKS.map(([section, href, label]) => `<a href="${href}"${section === current ? ' aria-current="page"' : ''}>${label}</a>`).join('');
  return `<header class="docs-bar"><a class="docs-brand" href="/docs">Vaultline</a><nav aria-label="Documentation">${links}</nav></header>`;
}

/** The document's start up to the navigation bar: every page under /docs has the same head and stylesheet. */
export function docsPageStart(title: string, section: DocsSection): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Vaultline</title>
<link rel="stylesheet" href="/docs/assets/docs.css">
</head><body>
${docsNavigation(section)}`;
}

/** A static documentation page (guides, errors): our stylesheet, and only the scripts of ours it names (the guides' copy buttons). */
export function docsPage(options: { title: string; section: DocsSection; toc: Array<[string, string]>; body: string; scripts?: string[] }): string {
  const toc = options.toc.map(([id, label]) => `<li><a href="#${escapeHtml(id)}">${escapeHtml(label)}</a></li>`).join('');
  const scripts = (options.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`).join('\n');
  return `${docsPageStart(options.title, options.section)}
<div class="docs-page"><aside class="docs-toc"><nav aria-label="On this page"><ul>${toc}</ul></nav></aside>
<main class="docs-main">${options.body}</main></div>
${scripts}
</body></html>`;
}
