import { isIPv4, isIPv6 } from 'node:net';

/** Why an address may not receive webhooks (absent: a public unicast address). */
export type ForbiddenAddressKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'cgnat'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'invalid';

type V4Rule = readonly [network: number, prefix: number, kind: ForbiddenAddressKind];

// Order matters: the first match wins, so the metadata hosts come before the ranges holding them.
const V4_RULES: readonly V4Rule[] = [
  [v4('169.254.169.254'), 32, 'metadata'], // AWS, GCP, Azure, OpenStack instance metadata
  [v4('169.254.170.2'), 32, 'metadata'], // AWS ECS task metadata
  [v4('168.63.129.16'), 32, 'metadata'], // Azure WireServer (a public address)
  [v4('100.100.100.200'), 32, 'metadata'], // Alibaba Cloud metadata
  [v4('192.0.0.192'), 32, 'metadata'], // Oracle Cloud metadata
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, 'reserved'], // 6to4 relay anycast
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

/**
 * Classifies an IP address (v4 or v6, optionally with an IPv6 zone) as a
 * forbidden webhook target, or returns undefined for a public unicast address.
 *
 * IPv6 is an allow-list: only global unicast (2000::/3) passes, minus its
 * special blocks; IPv4 embedded in IPv6 (IPv4-mapped ::ffff:a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4 address it carries.
 */
export function classifyAddress(ip: string): ForbiddenAddressKind | undefined {
  const address = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(address)) return classifyV4(v4(address));
  const bare = address.split('%')[0];
  if (!isIPv6(bare)) return 'invalid';
  return classifyV6(v6Groups(bare));
}

/** True when webhooks may not be sent to this address (see `classifyAddress`). */
export function isForbiddenAddress(ip: string): boolean {
  return classifyAddress(ip) !== undefined;
}

function classifyV4(value: number): ForbiddenAddressKind | undefined {
  for (const [network, prefix, kind] of V4_RULES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === network) return kind;
  }
  return undefined;
}

function classifyV6(g: number[]): ForbiddenAddressKind | undefined {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embeddedV4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;

  if (zeros(0, 8)) return 'unspecified';
  if (zeros(0, 7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated)
  if (zeros(0, 5) && g[5] === 0xffff) return classifyV4(embeddedV4(g[6], g[7]));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return classifyV4(embeddedV4(g[6], g[7]));
  // 64:ff9b::/96, the well-known NAT64 prefix: a gateway would connect to the IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyV4(embeddedV4(g[6], g[7]));
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && zeros(2, 7) && g[7] === 0x254) return 'metadata'; // AWS IMDS over IPv6
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  // 6to4: 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD.
  if (g[0] === 0x2002) return classifyV4(embeddedV4(g[1], g[2]));
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x3fff && (g[1] & 0xf000) === 0) return 'documentation'; // 3fff::/20
  if (g[0] === 0x2001 && g[1] === 0) return 'reserved'; // Teredo 2001::/32
  if (g[0] === 0x2001 && g[1] === 0x0002 && g[2] === 0) return 'reserved'; // benchmarking 2001:2::/48
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved'; // outside global unicast 2000::/3 (IPv4-compatible ::/96, 100::/64, fec0::/10, …)
  return undefined;
}

function v4(text: string): number {
  return text.split('.').reduce((acc, part) => ((acc << 8) | Number(part)) >>> 0, 0);
}

/** Eight 16-bit groups of a valid IPv6 literal (`::` and a trailing dotted quad expanded). */
function v6Groups(text: string): number[] {
  let head = text;
  const tail: number[] = [];
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (quad) {
    const value = v4(quad[1]);
    tail.push(value >>> 16, value & 0xffff);
    head = head.slice(0, -quad[1].length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const leftGroups = parse(left);
  const rightGroups = [...(right === undefined ? [] : parse(right)), ...tail];
  if (right === undefined) return [...leftGroups, ...tail];
  const fill = new Array<number>(8 - leftGroups.length - rightGroups.length).fill(0);
  return [...leftGroups, ...fill, ...rightGroups];
}
