import { useState, type FormEvent } from 'react';
import { ErrorMessage } from '../components/error-message';
import { useSession } from '../session-context';

export function SignInPage() {
  const { signIn } = useSession();
  const [keyId, setKeyId] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);

  // The form is handled here and never submitted by the browser, so the secret never lands in a URL.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    try {
      // On success the session changes and the app routes back to the page that asked (app.tsx).
      await signIn(keyId.trim(), secret.trim());
    } catch (failure) {
      setError(failure);
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="narrow">
      <h1>Sign in</h1>
      <p>
        Use an API key and its secret (<code>key_…</code> and <code>sk_…</code>; a first{' '}
        <code>npm start</code> writes one to <code>.data/bootstrap.json</code>). The secret stays in this
        tab&apos;s session storage and is sent only to this API.
      </p>
      <form onSubmit={submit} className="stack" method="post" action="#" autoComplete="off">
        <div className="field">
          <label htmlFor="sign-in-key">API key</label>
          <input
            id="sign-in-key"
            name="key"
            required
            value={keyId}
            onChange={(e) => setKeyId(e.target.value)}
            spellCheck={false}
          />
        </div>
        <div className="field">
          <label htmlFor="sign-in-secret">API secret</label>
          <input
            id="sign-in-secret"
            name="secret"
            type="password"
            required
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            autoComplete="off"
          />
        </div>
        <ErrorMessage error={error} />
        <button type="submit" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
