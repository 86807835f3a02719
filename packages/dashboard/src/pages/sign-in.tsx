// Sign-in: the API key goes once to POST /dashboard/session and is then forgotten (the field is cleared;
// it is never written to storage or to the address bar: the form posts by script, never by GET).
import { useEffect, useRef, useState } from 'preact/hooks';
import { signIn, type Session } from '../api/session';
import { describeError } from '../components/states';

export function SignInPage({ onSignedIn, notice }: { onSignedIn: (session: Session) => void; notice?: string }) {
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = 'Sign in · Vaultline dashboard';
    field.current?.focus();
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(apiKey.trim());
      setApiKey('');
      onSignedIn(session);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <form class="card" method="post" onSubmit={submit} autocomplete="off">
        <h1>Vaultline dashboard</h1>
        <p>Sign in with a merchant secret key (sk_test_… or sk_live_…), a dashboard key, or an operator key.</p>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label for="api-key">API key</label>
        <input
          ref={field}
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          required
          value={apiKey}
          aria-describedby={error ? 'sign-in-error' : undefined}
          aria-invalid={error ? true : undefined}
          onInput={(event) => setApiKey((event.target as HTMLInputElement).value)}
        />
        {error && (
          <p id="sign-in-error" class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="button button-primary" disabled={busy || !apiKey.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">The key is exchanged for a session cookie and is not kept by this page.</p>
      </form>
    </main>
  );
}
