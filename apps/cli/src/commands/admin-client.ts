/** Thin client of the operator API (`/admin/v1`), authenticated with the admin token. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly adminToken: string,
  ) {}

  post<T>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.request<T>('DELETE', path);
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const message = (parsed as { error?: string } | undefined)?.error ?? text;
      throw new Error(`${method} ${url.pathname} failed with ${response.status}: ${message}`);
    }
    return parsed as T;
  }
}
