import {
  convertIPv4BinaryToString,
  convertIPv4MappedIPv6ToIPv4,
  convertIPv4ToBinary,
  convertIPv6ToBinary,
  distinctRemoteAddr,
  isIPv4MappedIPv6,
} from 'hono/utils/ipaddr';

interface BinaryAddress {
  v4: boolean;
  bits: bigint;
}

/** An address as a number; IPv4-mapped IPv6 (`::ffff:10.0.0.1`) counts as the IPv4 address. */
function toBinary(address: string): BinaryAddress | null {
  try {
    const type = distinctRemoteAddr(address);
    if (type === 'IPv4') return { v4: true, bits: convertIPv4ToBinary(address) };
    if (type !== 'IPv6') return null;
    const bits = convertIPv6ToBinary(address);
    return isIPv4MappedIPv6(bits) ? { v4: true, bits: convertIPv4MappedIPv6ToIPv4(bits) } : { v4: false, bits };
  } catch {
    return null;
  }
}

/** `::ffff:10.0.0.1` → `10.0.0.1`, so one client has one throttling key whatever the socket family. */
export function normalizeAddress(address: string): string {
  const binary = toBinary(address);
  return binary?.v4 ? convertIPv4BinaryToString(binary.bits) : address;
}

interface AddressRule {
  v4: boolean;
  mask: bigint;
  bits: bigint;
}

function parseRule(entry: string): AddressRule {
  const invalid = () => new TypeError(`Invalid trusted proxy address: ${entry}`);
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const binary = toBinary(address);
  if (!binary || rest.length > 0) throw invalid();
  const width = binary.v4 ? 32 : 128;
  // A mapped IPv6 range (::ffff:10.0.0.0/104) is the IPv4 range with 96 fewer prefix bits.
  const mappedOffset = binary.v4 && address.includes(':') ? 96 : 0;
  const prefix = prefixText === undefined ? width : Number(prefixText) - mappedOffset;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) throw invalid();
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > width) throw invalid();
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { v4: binary.v4, mask, bits: binary.bits & mask };
}

export type AddressMatcher = (address: string) => boolean;

/**
 * Matches addresses against a list of single addresses or CIDR ranges (`10.0.0.0/8`, `fd00::/8`).
 * An entry that is not an address throws at once, so a bad configuration fails the start.
 */
export function addressMatcher(entries: readonly string[]): AddressMatcher {
  const rules = entries.map(parseRule);
  return (address) => {
    const binary = toBinary(address);
    return binary !== null && rules.some((rule) => rule.v4 === binary.v4 && (binary.bits & rule.mask) === rule.bits);
  };
}
