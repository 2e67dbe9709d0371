import { isIPv6 } from 'node:net';

const EMBEDDED_IPV4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const embedded = EMBEDDED_IPV4.exec(address);
  const text =
    embedded === null
      ? address
      : `${embedded[1]}${((Number(embedded[2]) << 8) | Number(embedded[3])).toString(16)}:${((Number(embedded[4]) << 8) | Number(embedded[5])).toString(16)}`;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const before = parse(head);
  const after = tail === null ? [] : parse(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The client address the write rate limit counts: an IPv4 address as it is (also when written as
 * IPv6, ::ffff:a.b.c.d), an IPv6 address by its /64 network, which one subscriber (one home, one
 * server) gets whole: counting each of its 2^64 addresses apart would let one client reset its
 * count at will.
 */
export function rateLimitAddress(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
