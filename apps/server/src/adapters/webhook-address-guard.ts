import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** The ranges a webhook may not reach unless the operator allows private addresses, by what they are. */
const RANGES: ReadonlyArray<readonly [kind: string, network: string, prefix: number, family: 'ipv4' | 'ipv6']> = [
  ['a cloud metadata address', '169.254.169.254', 32, 'ipv4'],
  ['a cloud metadata address', 'fd00:ec2::254', 128, 'ipv6'],
  ['a loopback address', '127.0.0.0', 8, 'ipv4'],
  ['a loopback address', '::1', 128, 'ipv6'],
  ['an unspecified address', '0.0.0.0', 8, 'ipv4'],
  ['an unspecified address', '::', 128, 'ipv6'],
  ['a private address', '10.0.0.0', 8, 'ipv4'],
  ['a private address', '172.16.0.0', 12, 'ipv4'],
  ['a private address', '192.168.0.0', 16, 'ipv4'],
  ['a private address', '100.64.0.0', 10, 'ipv4'],
  ['a private address', 'fc00::', 7, 'ipv6'],
  ['a link-local address', '169.254.0.0', 16, 'ipv4'],
  ['a link-local address', 'fe80::', 10, 'ipv6'],
  ['a multicast or reserved address', '224.0.0.0', 3, 'ipv4'],
  ['a multicast address', 'ff00::', 8, 'ipv6'],
];

const LISTS = RANGES.map(([kind, network, prefix, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, list, family };
});

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (`::ffff:127.0.0.1`, `::ffff:7f00:1`). */
function embeddedIpv4(address: string): string | null {
  const match = /^::(?:ffff:(?:0:)?)?((?:\d+\.){3}\d+|[0-9a-f]{1,4}:[0-9a-f]{1,4})$/i.exec(address);
  if (!match) return null;
  const tail = match[1]!;
  if (tail.includes('.')) return tail;
  const [high, low] = tail.split(':').map((part) => Number.parseInt(part, 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** What `address` is when a webhook may not reach it (`a loopback address`), or null when it may. */
export function forbiddenAddressKind(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return null;
  const mapped = family === 6 ? embeddedIpv4(bare) : null;
  if (mapped !== null && isIP(mapped) === 4) return forbiddenAddressKind(mapped);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return LISTS.find(({ list, family: listed }) => listed === type && list.check(bare, type))?.kind ?? null;
}

/** The error a refused address makes: what the delivery log shows. */
export class ForbiddenAddressError extends Error {
  readonly code = 'EWEBHOOKADDRESS';
  constructor(host: string, address: string, kind: string) {
    super(
      `refused to connect to ${host === address ? address : `${host} (${address})`}: ${kind} (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow)`,
    );
  }
}

/**
 * A `lookup` for an http(s) Agent that resolves as usual and then refuses every forbidden
 * address: the check is on the address the socket is about to connect to, so a name that
 * resolves to one (or changes what it resolves to between checks) is refused too.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    for (const { address } of addresses) {
      const kind = forbiddenAddressKind(address);
      if (kind !== null) return callback(new ForbiddenAddressError(hostname, address, kind), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
};
