import { InternalApiError } from '@genasset/contracts';

/**
 * JSON over HTTP to another service's `/internal/v1` routes, authenticated with
 * the shared INTERNAL_API_TOKEN. Errors come back as InternalApiError with the
 * owner's status and code, so callers handle a remote failure like a local one.
 */
export class InternalHttpClient {
  constructor(
    private readonly service: string,
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T | undefined> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new InternalApiError(
        503,
        'service_unavailable',
        `${this.service} is unreachable: ${(error as Error).message}`,
      );
    }
    if (response.status === 404 && method === 'GET') return undefined;
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const error = (parsed ?? {}) as { apiError?: string; error?: string; infos?: Record<string, unknown> };
      throw new InternalApiError(
        response.status,
        error.apiError ?? 'internal_error',
        error.error ?? `${this.service} answered ${response.status}`,
        error.infos,
      );
    }
    return parsed as T;
  }
}
