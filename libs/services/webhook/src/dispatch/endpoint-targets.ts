/** What the worker needs from the secret store: `open(ciphertext) → whsec_…` (the secrets module's SecretBox). */
export interface SecretOpener {
  open(ciphertext: string): string | Promise<string>;
}

export interface EndpointTarget {
  url: URL;
  secret: string;
}

interface Entry {
  rawUrl: string;
  ciphertext: string;
  target: EndpointTarget;
  expiresAt: number;
}

/**
 * Endpoint URL and decrypted secret, kept briefly per endpoint so a burst of
 * deliveries decrypts once. An entry is used only while the stored URL and
 * ciphertext are the ones it was made from, so an updated URL is picked up at
 * once. Failures are not cached: they surface as the attempt's -1.
 */
export class EndpointTargets {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly secrets: SecretOpener,
    private readonly policy: { allowHttp: boolean },
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** The target when it is cached and current: no promise on the hot path (get() makes one). */
  peek(endpointId: string, rawUrl: string, ciphertext: string, now = Date.now()): EndpointTarget | undefined {
    const cached = this.entries.get(endpointId);
    return cached && cached.expiresAt > now && cached.rawUrl === rawUrl && cached.ciphertext === ciphertext
      ? cached.target
      : undefined;
  }

  /** Throws a service-side error message when the endpoint cannot be sent to. */
  async get(endpointId: string, rawUrl: string, ciphertext: string): Promise<EndpointTarget> {
    const now = Date.now();
    const cached = this.peek(endpointId, rawUrl, ciphertext, now);
    if (cached) return cached;

    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new Error('endpoint URL is not a valid absolute URL');
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && this.policy.allowHttp)) {
      throw new Error(`endpoint URL scheme ${url.protocol} is not allowed (WEBHOOK_ALLOW_HTTP is off)`);
    }
    let secret: string;
    try {
      secret = await this.secrets.open(ciphertext);
    } catch {
      // Never the ciphertext or the key in a recorded message.
      throw new Error('endpoint secret could not be decrypted');
    }
    if (typeof secret !== 'string' || secret.length === 0)
      throw new Error('endpoint secret could not be decrypted');
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const target = { url, secret };
    this.entries.set(endpointId, { rawUrl, ciphertext, target, expiresAt: now + this.ttlMs });
    return target;
  }
}
