// The three states every page shows besides its data: loading, empty, and an error with a way to retry.
import type { ComponentChildren } from 'preact';
import { VaultlineError } from '@vaultline/node';
import { PageHeader } from './page';

export function Loading({ what }: { what: string }) {
  return (
    <p class="state state-loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="state state-empty">{children}</p>;
}

/** A failure as the API explained it (its detail and request id), or the plain message of anything else. */
export function describeError(error: unknown): string {
  if (error instanceof VaultlineError) return `${error.detail ?? error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div class="state state-error" role="alert">
      <p>Could not load: {describeError(error)}</p>
      {retry && (
        <button type="button" class="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A whole page whose data is not there yet (or failed): its heading, then the loading or error state. */
export function PageNotReady({
  title,
  what,
  state,
  retry,
}: {
  title: string;
  what: string;
  state: { status: 'loading' } | { status: 'error'; error: unknown };
  retry: () => void;
}) {
  return (
    <>
      <PageHeader title={title} />
      {state.status === 'loading' ? <Loading what={what} /> : <ErrorState error={state.error} retry={retry} />}
    </>
  );
}
