import { isIPv4, isIPv6 } from 'node:net';

/**
 * The name under which a client address is counted: an IPv4 address as it is (IPv4-mapped IPv6
 * included), an IPv6 address by its /64 prefix, since one subscriber line usually gets a whole /64
 * and could otherwise open a stream from each of its addresses.
 */
export const addressBucket = (address: string): string => {
  const bare = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1] as string;
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const [head = '', tail] = bare.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
};
