import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { api, session, ApiError } from './api.ts';
import { ErrorBox } from './widgets.ts';
import { useAction } from './action.ts';

/** Sign-in with an API key, checked against the API before it is kept (in this tab's session only). */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    const refused = (err: unknown) => ((err as ApiError).status === 401 ? `This API key was not accepted: ${(err as Error).message}` : (err as Error).message);
    void run(async () => {
      await api('GET', '/v1/scrapers', undefined, key.trim());
      session.signIn(key.trim());
      onSignedIn();
    }, refused);
  };
  return html`<main class="signin">
    <h1>Gleaner</h1>
    <form onSubmit=${submit}>
      <label
        >API key <input type="password" autocomplete="off" required value=${key} onInput=${(e: any) => setKey(e.currentTarget.value)} placeholder="glk_..."
      /></label>
      <p class="muted">Create one on the server with <code>gleaner keys create --owner NAME</code>. It is kept for this tab only.</p>
      <button type="submit" disabled=${busy}>${busy ? 'Checking…' : 'Sign in'}</button>
      <${ErrorBox} error=${error} />
    </form>
  </main>`;
}
