import { ERROR_GROUPS } from '@vaultline/contracts';
import { STATUS_CODES } from 'node:http';
import { docsPage, escapeHtml } from './docs-layout';

/** The catalogue's texts mark names with backticks: shown as code. */
const prose = (text: string): string => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const slug = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Every problem code, one element with id="{code}" each: a problem's `type` is
 * `{PUBLIC_BASE_URL}/docs/errors#{code}` and lands on its entry.
 */
export function errorsPage(): string {
  const groups = ERROR_GROUPS.map((group) => {
    const rows = Object.entries(group.entries)
      .map(
        ([code, entry]) =>
          `<tr class="error-entry" id="${escapeHtml(code)}"><td><code>${escapeHtml(code)}</code></td>` +
          `<td><span class="status" title="${escapeHtml(STATUS_CODES[entry.status] ?? '')}">${entry.status}</span></td>` +
          `<td>${prose(entry.meaning)}</td><td>${prose(entry.action)}</td></tr>`,
      )
      .join('');
    return `<h2 id="${slug(group.title)}">${escapeHtml(group.title)}</h2><table class="error-table"><thead><tr><th>code</th><th>status</th><th>what it means</th><th>what to do</th></tr></thead><tbody>${rows}</tbody></table>`;
  }).join('');
  const body = `<h1>Errors</h1>
<p>Every error is answered as <code>application/problem+json</code> (RFC 9457) with a stable <code>code</code>; <code>field</code> names the
offending input (a dotted path, or a header name) where there is one, and <code>request_id</code> (also in the <code>X-Request-Id</code> header) finds the
request in the service's logs. The <code>type</code> of a problem links to its entry below.</p>
<pre><code>HTTP/1.1 422 Unprocessable Entity
Content-Type: application/problem+json

{"type": "https://vaultline.example/docs/errors#validation_failed", "title": "Unprocessable Entity", "status": 422,
 "detail": "amount is required.", "code": "validation_failed", "field": "amount", "request_id": "0b6f…"}</code></pre>
<p class="note">Branch on <code>code</code>, never on <code>detail</code> (its wording may change). Retrying is safe for 409 <code>idempotency_key_in_use</code>,
429 and 5xx answers when the request carries an <code>Idempotency-Key</code>; see <a href="/docs/guides#idempotency">Idempotency</a>.</p>
${groups}`;
  return docsPage({ title: 'Errors', section: 'errors', toc: ERROR_GROUPS.map((group) => [slug(group.title), group.title]), body });
}
