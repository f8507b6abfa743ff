import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import proxyaddr from 'proxy-addr';

/** What requests Chorus makes on its own may reach beyond public addresses (HttpOptions slice). */
export interface OutboundReach {
  /** proxy-addr ranges (IPs, CIDRs, `loopback`, `linklocal`, `uniquelocal`) allowed although not public. */
  readonly outboundAllowPrivate: readonly string[];
}

/** Public addresses only: the default for a request that was not given the node's options. */
export const PUBLIC_ONLY: OutboundReach = { outboundAllowPrivate: [] };

/**
 * Addresses an application owner must not make the server post to (SSRF): this host, private and
 * shared networks, link-local (cloud metadata at 169.254.169.254), multicast and reserved ranges.
 * IPv4-mapped IPv6 addresses are matched against the IPv4 rules by BlockList itself.
 */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** True when `address` (an IP literal) may be reached under `reach`. */
export function mayReach(address: string, reach: OutboundReach): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (!NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
  return reach.outboundAllowPrivate.length > 0 && proxyaddr.compile([...reach.outboundAllowPrivate])(address, 0);
}

/** Thrown when a host resolves to an address the policy refuses (before any connection is made). */
export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super(`Refused outbound address ${address}`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * A `lookup` for http.request that resolves as usual and refuses the connection when any address of
 * the host is not reachable under `reach`. Checking here, where the socket connects, and not in a
 * separate resolution first, leaves no window for a DNS answer to change between check and use.
 */
export function guardedLookup(reach: OutboundReach): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = addresses.find((entry) => !mayReach(entry.address, reach));
      if (refused) {
        callback(new RefusedAddressError(refused.address), '', 0);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]?.address ?? '', addresses[0]?.family ?? 4);
    });
  };
}
