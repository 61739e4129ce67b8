import { basicAuthorization, loadSession } from './session';

/** A failed API call: `message` is the API's own `error` text, shown to the user as is. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly apiError?: string,
    readonly infos?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** Credentials to use instead of the session's (sign-in checks them before saving). */
  credentials?: { keyId: string; secret: string };
}

export interface ApiResponse<T> {
  status: number;
  body: T;
}

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Calls the public API on the console's own origin (the platform, or the gateway in a
 * distributed deployment). Any non-2xx answer becomes an ApiCallError carrying the API's message.
 */
export async function call<T>(path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const credentials = options.credentials ?? loadSession();
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credentials) headers.authorization = basicAuthorization(credentials.keyId, credentials.secret);
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiCallError(
      `The API could not be reached (${error instanceof Error ? error.message : String(error)})`,
      0,
    );
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = parsed as
      { error?: unknown; apiError?: unknown; infos?: Record<string, unknown> } | undefined;
    const message =
      typeof error?.error === 'string'
        ? error.error
        : `${response.status} ${response.statusText || 'error'}`.trim();
    throw new ApiCallError(
      message,
      response.status,
      typeof error?.apiError === 'string' ? error.apiError : undefined,
      error?.infos,
    );
  }
  if (parsed === undefined)
    throw new ApiCallError(
      `The API answered ${response.status} with a body that is not JSON`,
      response.status,
    );
  return { status: response.status, body: parsed as T };
}

export async function get<T>(path: string, query?: Query): Promise<T> {
  return (await call<T>(path, { query })).body;
}

export async function send<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  query?: Query,
): Promise<T> {
  return (await call<T>(path, { method, body, query })).body;
}

/** Field messages of a 400 (`infos.fields`), flattened for display under the main message. */
export function fieldMessages(error: unknown): string[] {
  if (!(error instanceof ApiCallError)) return [];
  const fields = error.infos?.fields;
  if (!fields || typeof fields !== 'object') return [];
  return Object.entries(fields as Record<string, unknown>).flatMap(([field, messages]) =>
    Array.isArray(messages)
      ? messages.map((m) => `${field}: ${String(m)}`)
      : [`${field}: ${String(messages)}`],
  );
}
