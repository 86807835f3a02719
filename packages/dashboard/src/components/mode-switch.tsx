// The test/live switch, always in the top bar of a merchant session. A mode the session holds no key of asks
// for that mode's key once (sent to POST /dashboard/session/mode, not kept).
import { VaultlineError, type Mode } from '@vaultline/node';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Session } from '../api/session';
import { describeError } from './states';

export function ModeSwitch({ session, onSwitch }: { session: Session; onSwitch: (mode: Mode, apiKey?: string) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null);
  const [askingKeyFor, setAskingKeyFor] = useState<Mode | null>(null);
  const choose = (mode: Mode) => {
    if (mode === session.mode) return;
    setError(null);
    if (!session.modes.includes(mode)) {
      setAskingKeyFor(mode);
      return;
    }
    onSwitch(mode).catch((failure: unknown) => {
      if (failure instanceof VaultlineError && failure.code === 'mode_key_required') setAskingKeyFor(mode);
      else setError(describeError(failure));
    });
  };
  return (
    <>
      <fieldset class="mode-switch">
        <legend class="visually-hidden">Data shown</legend>
        {(['test', 'live'] as const).map((mode) => (
          <label key={mode} class={session.mode === mode ? 'checked' : undefined}>
            <input type="radio" name="mode" value={mode} checked={session.mode === mode} onChange={() => choose(mode)} />
            {mode === 'test' ? 'Test data' : 'Live data'}
          </label>
        ))}
      </fieldset>
      {error && (
        <span class="form-error" role="alert">
          {error}
        </span>
      )}
      {askingKeyFor && <ModeKeyDialog mode={askingKeyFor} onSwitch={onSwitch} onClose={() => setAskingKeyFor(null)} />}
    </>
  );
}

function ModeKeyDialog({ mode, onSwitch, onClose }: { mode: Mode; onSwitch: (mode: Mode, apiKey: string) => Promise<void>; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => dialog.current?.showModal(), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSwitch(mode, apiKey.trim());
      onClose();
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <dialog ref={dialog} aria-labelledby="mode-key-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="mode-key-title">Switch to {mode} data</h2>
        <p>
          This session has no {mode} key yet. Give a {mode} key of the same merchant (sk_{mode}_…) once; it is not kept by this page.
        </p>
        <div class="field">
          <label for="mode-key">{mode === 'live' ? 'Live' : 'Test'} API key</label>
          <input
            id="mode-key"
            type="password"
            autocomplete="off"
            required
            value={apiKey}
            onInput={(event) => setApiKey((event.target as HTMLInputElement).value)}
          />
        </div>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" class="button" onClick={onClose}>
            Back
          </button>
          <button type="submit" class="button button-primary" disabled={busy || !apiKey.trim()}>
            {busy ? 'Switching…' : `Switch to ${mode}`}
          </button>
        </div>
      </form>
    </dialog>
  );
}
