import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, type ForbiddenAddressKind } from './address-classifier';

/** What the deployment allows (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS). */
export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Resolves a host name to every address it has (`dns.lookup` with `all: true` by default). */
export type ResolveAll = (hostname: string) => Promise<string[]>;

const resolveWithDns: ResolveAll = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Decides whether `raw` may be registered as a webhook URL: absolute, http(s)
 * only, https unless `allowHttp`, no credentials, and — unless `allowPrivate` —
 * a host whose every address is public. A host that does not resolve is
 * refused too (it could not receive anything, and it may later resolve to
 * anything). The check is repeated at connect time (`guardedConnector`), so a
 * name re-pointed at a private address after registration (DNS rebinding)
 * still reaches nothing.
 */
export async function checkWebhookUrl(
  raw: string,
  policy: UrlPolicy,
  resolveAll: ResolveAll = resolveWithDns,
): Promise<UrlCheck> {
  const refuse = (reason: string): UrlCheck => ({ ok: false, reason });
  if (typeof raw !== 'string' || raw.trim() === '') return refuse('the URL is empty');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('the URL must be absolute, e.g. https://example.com/webhooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse(`the URL scheme must be https (got ${url.protocol.slice(0, -1)})`);
  if (url.protocol === 'http:' && !policy.allowHttp) return refuse('the URL must use https');
  if (url.username || url.password) return refuse('the URL must not contain credentials');
  // Never sent in a request: with it, one target could be registered twice (`/x#a`, `/x#b`).
  if (url.href.includes('#')) return refuse('the URL must not contain a fragment (#…)');
  const host = bareHost(url.hostname);
  if (!host) return refuse('the URL has no host');
  if (policy.allowPrivate) return { ok: true, url };

  if (isIP(host)) {
    const kind = classifyAddress(host);
    return kind ? refuse(`${host} is ${describe(kind)}`) : { ok: true, url };
  }
  if (host === 'localhost' || host.endsWith('.localhost'))
    return refuse(`${host} is ${describe('loopback')}`);
  let addresses: string[];
  try {
    addresses = await resolveAll(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return refuse(`the host ${host} does not resolve${code ? ` (${code})` : ''}`);
  }
  if (addresses.length === 0) return refuse(`the host ${host} does not resolve`);
  for (const address of addresses) {
    const kind = classifyAddress(address);
    if (kind) return refuse(`the host ${host} resolves to ${address}, ${describe(kind)}`);
  }
  return { ok: true, url };
}

/** `[::1]` → `::1`; URL keeps IPv6 literals bracketed in `hostname`. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

const DESCRIPTIONS: Record<ForbiddenAddressKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  cgnat: 'a carrier-grade NAT (shared) address',
  'unique-local': 'a unique-local (private) address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  documentation: 'a documentation address',
  reserved: 'a reserved address',
  invalid: 'not a valid address',
};

/** "a private address", "a loopback address", …: for refusal messages. */
export function describe(kind: ForbiddenAddressKind): string {
  return `${DESCRIPTIONS[kind]}, which webhooks may not target`;
}
