import { dateTime } from '../format';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** A page's heading (the document title follows it) and its actions. */
export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Vaultline dashboard`;
  }, [title]);
  return (
    <header class="page-header">
      <h1>{title}</h1>
      {children && <div class="page-actions">{children}</div>}
    </header>
  );
}

export function Badge({ value }: { value: string | null | undefined }) {
  const word = value ?? 'none';
  return <span class={`badge badge-${word.replace(/[^a-z_]/gi, '')}`}>{word.replace(/_/g, ' ')}</span>;
}

/** A term/description list of an object's fields (a detail page's summary). */
export function Facts({ facts }: { facts: Array<[string, ComponentChildren]> }) {
  return (
    <dl class="facts">
      {facts.map(([term, description]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{description}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A time in a table cell: on one line, and machine-readable. */
export function Time({ at }: { at: string | null | undefined }) {
  return at ? (
    <time class="nowrap" dateTime={at}>
      {dateTime(at)}
    </time>
  ) : (
    <>—</>
  );
}
