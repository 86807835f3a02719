import { docsPageStart, escapeHtml, type DocsSection } from './docs-layout';

/** The API reference: Redoc (served from /docs/assets) renders the OpenAPI document at `specUrl`. */
export function referencePage(options: { title: string; specUrl: string; section: DocsSection; assetUrl: (name: string) => string }): string {
  return `${docsPageStart(options.title, options.section)}
<div id="reference" data-spec="${escapeHtml(options.specUrl)}"><noscript><p class="docs-main">The reference needs JavaScript; the document itself is at <a href="${escapeHtml(options.specUrl)}">${escapeHtml(options.specUrl)}</a>.</p></noscript></div>
<script src="${escapeHtml(options.assetUrl('redoc.standalone.js'))}"></script>
<script src="${escapeHtml(options.assetUrl('reference.js'))}"></script>
</body></html>`;
}
