import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { classifyAddress, type ForbiddenAddressKind } from './address-classifier';
import { bareHost, describe } from './check-webhook-url';

/** Thrown (as a connect error) when a webhook host resolves to a forbidden address at connect time. */
export class ForbiddenTargetError extends Error {
  readonly code = 'WEBHOOK_FORBIDDEN_TARGET';
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly kind: ForbiddenAddressKind,
  ) {
    super(
      hostname === address
        ? `${address} is ${describe(kind)}`
        : `${hostname} resolves to ${address}, ${describe(kind)}`,
    );
    this.name = 'ForbiddenTargetError';
  }
}

/** The all-addresses form of `dns.lookup`; tests pass their own to simulate rebinding. */
export type LookupAll = (
  hostname: string,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const lookupAllWithDns: LookupAll = (hostname, callback) =>
  dnsLookup(hostname, { all: true, verbatim: true } satisfies LookupAllOptions, callback);

export type GuardedConnectorOptions = buildConnector.BuildOptions & {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: skip the address check entirely. */
  allowPrivate: boolean;
  lookupAll?: LookupAll;
};

/**
 * A `net.connect` lookup that resolves every address of the host and fails
 * the connection when any of them is forbidden — the address actually dialled
 * is the one checked here, so a host that passed registration and was later
 * re-pointed at 127.0.0.1 or 169.254.169.254 (DNS rebinding) is refused.
 */
export function guardedLookup(lookupAll: LookupAll = lookupAllWithDns): LookupFunction {
  return (hostname, options, callback) => {
    lookupAll(hostname, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const forbidden = addresses.map((a) => ({ a, kind: classifyAddress(a.address) })).find((x) => x.kind);
      if (forbidden)
        return callback(new ForbiddenTargetError(hostname, forbidden.a.address, forbidden.kind!), '', 0);
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const usable = family ? addresses.filter((a) => a.family === family) : addresses;
      if (usable.length === 0) {
        const notFound: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
        notFound.code = 'ENOTFOUND';
        return callback(notFound, '', 0);
      }
      // net.connect asks for every address when it races families (autoSelectFamily), else for one.
      if (options.all) return callback(null, usable);
      callback(null, usable[0].address, usable[0].family);
    });
  };
}

/**
 * An undici connector (`new Agent({ connect: guardedConnector(...) })`) that
 * refuses forbidden targets at connect time: IP literals before dialling,
 * names through `guardedLookup`. With `allowPrivate` it is undici's own.
 */
export function guardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const { allowPrivate, lookupAll, ...connectOptions } = options;
  if (allowPrivate) return buildConnector(connectOptions);
  const connect = buildConnector({
    ...connectOptions,
    lookup: guardedLookup(lookupAll),
  } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = bareHost(opts.hostname);
    if (isIP(host)) {
      const kind = classifyAddress(host);
      if (kind) return callback(new ForbiddenTargetError(host, host, kind), null);
    }
    return connect(opts, callback);
  };
}
