/**
 * Who a client is, as every per-address count reads it (docs/hostile-input.md §12, §15, §16): the
 * rate limit, the WebSockets and the HTTP connections an address may hold all key on
 * {@link clientGroup}, so an address is one client everywhere or nowhere. An IPv6 client is its
 * network of `APP_HTTP__IPV6_PREFIX` bits (64 by default): one subscriber is commonly given a /64
 * or more, so counting each address alone let one client open 64 sockets from each of as many
 * addresses as it liked (320 from five addresses of one /56 while the rate limit, which grouped
 * them, saw one client).
 */
import type { IncomingMessage } from 'node:http';
import { ipKeyGenerator } from 'express-rate-limit';

/** How addresses are read and grouped (`APP_HTTP__TRUST_PROXY`, `APP_HTTP__IPV6_PREFIX`). */
export interface AddressReading {
  /** Proxy hops whose `X-Forwarded-For` names the client. */
  readonly trustProxy: number;
  /** The prefix length an IPv6 client is counted by (128: each address alone). */
  readonly ipv6Prefix: number;
}

/**
 * The client address of `request` as Express computes `request.ip` with `trust proxy` set to `hops`:
 * the socket's peer, or, through that many proxies, the address they forwarded (X-Forwarded-For,
 * read from the right). An empty string when the socket has no peer address (it has closed).
 */
function clientAddress(request: IncomingMessage, hops: number): string {
  const forwarded = request.headers['x-forwarded-for'];
  const chain = [
    request.socket.remoteAddress ?? '',
    ...(typeof forwarded === 'string'
      ? forwarded
          .split(',')
          .map((address) => address.trim())
          .reverse()
      : []),
  ];
  return chain[Math.min(hops, chain.length - 1)] ?? '';
}

/**
 * The client an address counts as: an IPv4 address itself (also when written IPv4-mapped,
 * `::ffff:192.0.2.1`, as a dual-stack listener reports it); an IPv6 address its network of
 * `ipv6Prefix` bits (`2001:db8:1:2::/64`; with 128 the address alone, written one way:
 * `2001:db8::1/128`); any other text (a forwarded value that is no address)
 * itself. express-rate-limit's `ipKeyGenerator` does the parsing, so the rate limit's key and every
 * other count's are the same function of the address.
 */
export function addressGroup(address: string, ipv6Prefix: number): string {
  return ipKeyGenerator(address, ipv6Prefix);
}

/** The client `request` comes from (its {@link clientAddress} as {@link addressGroup} counts it). */
export function clientGroup(request: IncomingMessage, reading: AddressReading): string {
  return addressGroup(clientAddress(request, reading.trustProxy), reading.ipv6Prefix);
}
