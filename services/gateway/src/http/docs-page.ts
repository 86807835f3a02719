import type { JsonObject } from '@vaultline/contracts';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * A small self-contained HTML rendering of the OpenAPI document (no CDN, no script): one section
 * per operation with its parameters, request body and responses, and the schemas at the end.
 */
export function renderDocsPage(document: JsonObject): string {
  const info = (document.info ?? {}) as { title?: string; version?: string; description?: string };
  const paths = (document.paths ?? {}) as Record<string, Record<string, JsonObject>>;
  const schemas = ((document.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  const operations: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const anchor = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-');
      toc.push(`<li><a href="#${anchor}"><span class="m ${method}">${method.toUpperCase()}</span> ${escape(path)}</a></li>`);
      const params = ((op.parameters ?? []) as JsonObject[])
        .map((p) => (typeof p.$ref === 'string' ? `<li><code>${escape(p.$ref.split('/').pop() ?? '')}</code> (shared parameter)</li>` : `<li><code>${escape(String(p.name))}</code> in ${escape(String(p.in))}${p.required ? ', required' : ''}</li>`))
        .join('');
      const body = (op.requestBody as JsonObject | undefined)?.content as Record<string, { schema?: JsonObject }> | undefined;
      const bodySchema = body ? Object.values(body)[0]?.schema : undefined;
      const responses = Object.entries((op.responses ?? {}) as Record<string, JsonObject>)
        .map(([status, r]) => `<li><b>${escape(status)}</b> ${escape(String(r.description ?? (typeof r.$ref === 'string' ? r.$ref.split('/').pop() : '')))}</li>`)
        .join('');
      operations.push(
        `<section id="${anchor}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>` +
          (op.summary ? `<p>${escape(String(op.summary))}</p>` : '') +
          (op.description ? `<p>${escape(String(op.description))}</p>` : '') +
          (params ? `<h4>Parameters</h4><ul>${params}</ul>` : '') +
          (bodySchema ? `<h4>Request body</h4><pre>${escape(JSON.stringify(bodySchema, null, 2))}</pre>` : '') +
          `<h4>Responses</h4><ul>${responses}</ul></section>`,
      );
    }
  }
  const schemaSections = Object.entries(schemas)
    .map(([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3><pre>${escape(JSON.stringify(schema, null, 2))}</pre></section>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title ?? 'API')} — reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex;color:#1d2330}
nav{width:320px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:1rem;box-sizing:border-box}
nav ul{list-style:none;padding:0;margin:0}nav li{margin:.2rem 0;font-size:13px}nav a{color:inherit;text-decoration:none}
main{padding:1rem 2rem;max-width:960px}section{border-top:1px solid #e3e7ee;padding:.5rem 0}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;font-size:12px;border-radius:4px}
.m{display:inline-block;min-width:3.5em;font:bold 11px monospace;padding:2px 4px;border-radius:3px;color:#fff;text-align:center}
.get{background:#2f7d32}.post{background:#1f5fbf}.delete{background:#b3261e}.put,.patch{background:#8a5a00}
</style></head>
<body><nav><strong>${escape(info.title ?? 'API')}</strong> <small>${escape(info.version ?? '')}</small>
<p><a href="/openapi.json">openapi.json</a></p><ul>${toc.join('')}</ul></nav>
<main><h1>${escape(info.title ?? 'API')}</h1><p>${escape(info.description ?? '')}</p>
<h2>Operations</h2>${operations.join('')}<h2>Schemas</h2>${schemaSections}</main></body></html>`;
}
