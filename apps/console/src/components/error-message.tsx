import { ApiCallError, fieldMessages } from '../api/api-client';

/** The API's own message for a failed call (role=alert, so screen readers announce it). */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const status = error instanceof ApiCallError && error.status ? ` (${error.status})` : '';
  const fields = fieldMessages(error);
  return (
    <div className="error" role="alert">
      <strong>{message}</strong>
      {status}
      {fields.length > 0 && (
        <ul>
          {fields.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
