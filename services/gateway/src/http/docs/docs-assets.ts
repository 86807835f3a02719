import { readFileSync } from 'node:fs';

/** A file the pages under /docs load from /docs/assets/{name}. */
export interface DocsAsset {
  type: string;
  body: Buffer;
}

const DOCS_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#fff}
a{color:#1f5fbf}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em}
code{background:#f1f3f7;padding:.1em .3em;border-radius:3px}
.docs-main p code,.docs-main li code{overflow-wrap:anywhere}
td code{white-space:nowrap}
pre{background:#0f1724;color:#e6edf3;padding:1rem;border-radius:6px;overflow:auto;line-height:1.45}
pre code{background:none;padding:0;color:inherit}
.docs-bar{display:flex;align-items:center;gap:1.5rem;padding:0 1.25rem;height:52px;background:#0f1724;color:#fff;position:sticky;top:0;z-index:10}
.docs-bar a{color:#c9d4e3;text-decoration:none;font-size:.95rem}
.docs-bar a:hover,.docs-bar a[aria-current=page]{color:#fff}
.docs-bar a[aria-current=page]{border-bottom:2px solid #5b9cff;padding-bottom:2px}
.docs-bar .docs-brand{color:#fff;font-weight:700;font-size:1.05rem}
.docs-bar nav{display:flex;gap:1.25rem;flex-wrap:wrap}
.docs-page{display:flex;max-width:1280px;margin:0 auto}
.docs-toc{flex:none;width:250px;padding:1.5rem 1rem;position:sticky;top:52px;align-self:flex-start;max-height:calc(100vh - 52px);overflow:auto}
.docs-toc ul{list-style:none;margin:0;padding:0}
.docs-toc li{margin:.35rem 0;font-size:.9rem}
.docs-toc a{color:#3b4457;text-decoration:none}
.docs-toc a:hover{color:#1f5fbf}
.docs-main{flex:1;min-width:0;padding:1.5rem 2rem 4rem;max-width:940px}
.docs-main h1{font-size:2rem;margin:.5rem 0 1rem}
.docs-main h2{font-size:1.45rem;margin:2.5rem 0 .75rem;padding-top:.5rem;border-top:1px solid #e3e7ee;scroll-margin-top:64px}
.docs-main h3{font-size:1.1rem;margin:1.5rem 0 .5rem;scroll-margin-top:64px}
table{border-collapse:collapse;width:100%;margin:.75rem 0 1.25rem;font-size:.92rem}
th,td{border:1px solid #e3e7ee;padding:.45rem .6rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.error-table{table-layout:fixed}.error-table th:nth-child(1){width:33%}.error-table th:nth-child(2){width:4.5rem}
.error-entry{scroll-margin-top:64px}
.error-entry:target{background:#fff8db}
.status{display:inline-block;min-width:2.6em;text-align:center;font:600 .8rem ui-monospace,monospace;border-radius:3px;padding:.05rem .3rem;background:#eef2f7}
.note{background:#f4f8ff;border-left:4px solid #5b9cff;padding:.6rem .9rem;margin:1rem 0}
[hidden]{display:none!important}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.copy{font:600 .75rem system-ui,sans-serif;padding:.15rem .5rem;border:1px solid #8a94a6;border-radius:4px;background:#fff;color:#1d2330;cursor:pointer;min-height:26px}
.copy:hover{background:#eef2f7}.copy:focus-visible{outline:3px solid #1f5fbf;outline-offset:2px}
.card-number{display:inline-flex;align-items:center;gap:.5rem;white-space:nowrap}
.sample{position:relative}.sample .copy{position:absolute;top:.5rem;right:.5rem;background:#1d2736;color:#e6edf3;border-color:#5b6b82}
.sample .copy:hover{background:#2a3850}
@media (max-width:800px){.docs-toc{display:none}.docs-main{padding:1rem}.docs-main table{display:block;overflow-x:auto}
.docs-bar{height:auto;min-height:52px;flex-wrap:wrap;gap:.25rem 1rem;padding:.5rem 1rem}.docs-bar nav{gap:.25rem 1rem}}
`;

/**
 * Starts Redoc on the element #reference with the document its data-spec names: request bodies and success
 * responses expanded to their last field, with their examples; error responses listed by status and description.
 */
const REFERENCE_JS = `(function () {
  var root = document.getElementById('reference');
  window.Redoc.init(root.getAttribute('data-spec'), {
    expandResponses: '200,201,202,204',
    jsonSampleExpandLevel: 'all',
    schemaExpansionLevel: 'all',
    expandSingleSchemaField: true,
    expandDefaultServerVariables: true,
    requiredPropsFirst: true,
    showObjectSchemaExamples: true,
    scrollYOffset: 52,
    theme: { colors: { primary: { main: '#1f5fbf' } }, typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' }, code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } }, sidebar: { width: '280px' } }
  }, root);
})();
`;

/** Redoc's standalone bundle, from the installed npm package: the reference needs no network beyond this service. */
const REDOC_BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
/**
 * The one address the bundle loads from elsewhere: the logo beside "API docs by Redocly" in its menu. It becomes
 * an empty data: image (which the page's policy allows and Redoc hides when it does not render), so the page makes
 * no request to another origin.
 */
const REDOC_LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

function redocBundle(): Buffer {
  const source = readFileSync(REDOC_BUNDLE, 'utf8');
  if (!source.includes(REDOC_LOGO_URL)) return Buffer.from(source);
  return Buffer.from(source.split(REDOC_LOGO_URL).join('data:,'));
}

/**
 * The guides' copy buttons: each names what it copies (a card number without its spaces, a code sample) in
 * data-copy; the page hides them until this runs. The clipboard API where the page is a secure context (https,
 * localhost), else a selection copied with execCommand; a polite live region says it was copied.
 */
const GUIDES_JS = `(function () {
  var status = document.getElementById('copy-status');
  function fallbackCopy(text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand('copy'); } catch (e) { done = false; }
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    return fallbackCopy(text);
  }
  Array.prototype.forEach.call(document.querySelectorAll('button.copy[data-copy]'), function (button) {
    var label = button.querySelector('.copy-label');
    button.hidden = false;
    button.addEventListener('click', function () {
      copy(button.getAttribute('data-copy')).then(function () {
        if (label) label.textContent = 'Copied';
        if (status) status.textContent = 'Copied to the clipboard.';
        setTimeout(function () { if (label) label.textContent = 'Copy'; }, 1500);
      }, function () {
        if (status) status.textContent = 'Could not copy: select the text and copy it by hand.';
      });
    });
  });
})();
`;

export function loadDocsAssets(): Record<string, DocsAsset> {
  return {
    'docs.css': { type: 'text/css; charset=utf-8', body: Buffer.from(DOCS_CSS) },
    'reference.js': { type: 'text/javascript; charset=utf-8', body: Buffer.from(REFERENCE_JS) },
    'guides.js': { type: 'text/javascript; charset=utf-8', body: Buffer.from(GUIDES_JS) },
    'redoc.standalone.js': { type: 'text/javascript; charset=utf-8', body: redocBundle() },
  };
}
