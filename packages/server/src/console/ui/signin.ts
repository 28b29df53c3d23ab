import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { api, session, ApiError } from './api.ts';
import { ErrorBox } from './widgets.ts';

/** Sign-in with an API key, checked against the API before it is kept (in this tab's session only). */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('GET', '/v1/scrapers', undefined, key.trim());
      session.signIn(key.trim());
      onSignedIn();
    } catch (err) {
      const e = err as ApiError;
      setError(e.status === 401 ? `This API key was not accepted: ${e.message}` : e.message);
    } finally {
      setBusy(false);
    }
  };
  return html`<main class="signin">
    <h1>Gleaner</h1>
    <form onSubmit=${submit}>
      <label>API key <input type="password" autocomplete="off" required value=${key} onInput=${(e: any) => setKey(e.currentTarget.value)} placeholder="glk_..." /></label>
      <p class="muted">Create one on the server with <code>gleaner keys create --owner NAME</code>. It is kept for this tab only.</p>
      <button type="submit" disabled=${busy}>${busy ? 'Checking…' : 'Sign in'}</button>
      <${ErrorBox} error=${error} />
    </form>
  </main>`;
}
