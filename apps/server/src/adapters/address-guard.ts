import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

type Range = readonly [kind: string, network: string, prefix: number];

/**
 * The IPv4 ranges of the IANA special-purpose registry (and multicast, reserved), by what they
 * are; the first that holds an address names it (the metadata address before link-local).
 */
const IPV4_REFUSED: readonly Range[] = [
  ['a cloud metadata address', '169.254.169.254', 32],
  ['an unspecified address', '0.0.0.0', 8],
  ['a private address', '10.0.0.0', 8],
  ['a private address', '100.64.0.0', 10],
  ['a loopback address', '127.0.0.0', 8],
  ['a link-local address', '169.254.0.0', 16],
  ['a private address', '172.16.0.0', 12],
  ['a special-purpose address', '192.0.0.0', 24],
  ['a documentation address', '192.0.2.0', 24],
  ['a special-purpose address', '192.88.99.0', 24],
  ['a private address', '192.168.0.0', 16],
  ['a benchmarking address', '198.18.0.0', 15],
  ['a documentation address', '198.51.100.0', 24],
  ['a documentation address', '203.0.113.0', 24],
  ['a multicast address', '224.0.0.0', 4],
  ['a reserved address', '240.0.0.0', 4],
];

/** IPv6 ranges refused by name; any other address outside global unicast (2000::/3) is refused as reserved. */
const IPV6_REFUSED: readonly Range[] = [
  ['a cloud metadata address', 'fd00:ec2::254', 128],
  ['an unspecified address', '::', 128],
  ['a loopback address', '::1', 128],
  ['a private address', 'fc00::', 7],
  ['a link-local address', 'fe80::', 10],
  ['a multicast address', 'ff00::', 8],
  ['a special-purpose address', '2001::', 23],
  ['a documentation address', '2001:db8::', 32],
  ['a documentation address', '3fff::', 20],
  // 6to4 (deprecated, RFC 7526): its relay could carry the packet to any IPv4 address.
  ['a 6to4 address', '2002::', 16],
];

const listOf = (network: string, prefix: number, family: 'ipv4' | 'ipv6') => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return list;
};
const IPV4_LISTS = IPV4_REFUSED.map(([kind, network, prefix]) => ({ kind, list: listOf(network, prefix, 'ipv4') }));
const IPV6_LISTS = IPV6_REFUSED.map(([kind, network, prefix]) => ({ kind, list: listOf(network, prefix, 'ipv6') }));
const GLOBAL_UNICAST = listOf('2000::', 3, 'ipv6');
/** IPv6 ranges whose last 32 bits are the IPv4 address reached: IPv4-mapped and NAT64's well-known prefix. */
const EMBEDDING_IPV4 = [listOf('::ffff:0:0', 96, 'ipv6'), listOf('64:ff9b::', 96, 'ipv6')];

/** The IPv4 address in the last 32 bits of an IPv6 address (`::ffff:7f00:1` → `127.0.0.1`). */
function lastIpv4(address: string): string {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) return dotted[1]!;
  const [high, low] = address
    .split(':')
    .slice(-2)
    .map((part) => Number.parseInt(part || '0', 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * What `address` is when the service may not reach it (a webhook, an identity provider) (`a loopback address`), or null when it may:
 * only globally routable unicast addresses may be reached. An IPv4-mapped or NAT64 address is
 * judged by the IPv4 address it carries.
 */
export function forbiddenAddressKind(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return IPV4_LISTS.find(({ list }) => list.check(bare, 'ipv4'))?.kind ?? null;
  if (family !== 6) return null;
  if (EMBEDDING_IPV4.some((list) => list.check(bare, 'ipv6'))) return forbiddenAddressKind(lastIpv4(bare));
  const named = IPV6_LISTS.find(({ list }) => list.check(bare, 'ipv6'))?.kind;
  if (named !== undefined) return named;
  return GLOBAL_UNICAST.check(bare, 'ipv6') ? null : 'a reserved address';
}

/**
 * A refused address. Its message names neither the address nor what it is (the delivery log or
 * the server's log is no map of the network), only the variable that would allow it.
 */
export class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
  constructor(allowVariable: string) {
    super(`address not allowed (only public addresses, unless ${allowVariable}=true)`);
  }
}

/**
 * A `lookup` for an http(s) Agent that resolves as usual and then refuses every forbidden
 * address: the check is on the address the socket is about to connect to, so a name that
 * resolves to one (or changes what it resolves to between checks) is refused too. The refusal
 * names `allowVariable`, the setting that would lift it.
 */
export function guardedLookup(allowVariable: string): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.some(({ address }) => forbiddenAddressKind(address) !== null)) {
        return callback(new ForbiddenAddressError(allowVariable), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}
