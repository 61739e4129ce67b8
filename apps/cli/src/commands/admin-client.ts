/**
 * Thin client of the operator API (`/admin/v1`), authenticated with the admin
 * token. Its errors say what to do: where the server was looked for when it
 * cannot be reached, where the token comes from when it is refused.
 */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
    private readonly timeoutMs = 30_000,
  ) {}

  post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new Error(
        `cannot reach ${url.origin} (${networkCause(error, this.timeoutMs)}): is the server running? ` +
          'Start it with `npm start`, or pass --url / set GENASSET_URL to where it runs',
      );
    }
    const text = await response.text();
    const parsed = parseJson(text);
    if (response.status === 401) {
      throw new Error(
        `${url.origin} refused the admin token (401): pass the server's ADMIN_TOKEN with --admin-token or ADMIN_TOKEN; ` +
          'a server started with `npm start` keeps it as "adminToken" in $DATA_DIR/bootstrap.json (./.data by default)',
      );
    }
    if (!response.ok) {
      const message = (parsed as { error?: string } | undefined)?.error ?? text;
      throw new Error(`${method} ${url.pathname} failed with ${response.status}: ${message}`);
    }
    if (parsed === undefined) throw new Error(`${method} ${url.pathname} answered ${response.status} without a JSON body: is ${url.origin} this product?`);
    return parsed as T;
  }
}

/** What failed under fetch's bare "fetch failed": ECONNREFUSED, ENOTFOUND, a timeout… */
function networkCause(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy's HTML error page, say: the status and the text tell more than a parse error.
    return undefined;
  }
}
