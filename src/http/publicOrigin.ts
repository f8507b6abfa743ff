import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import proxyaddr from 'proxy-addr';
import type { HttpOptions } from '../config/Config.js';
import type { EdgeContext, EdgeDeps } from './EdgeDeps.js';

/**
 * A Host value fit to put in a URL: a DNS name or IPv4 address, or a bracketed IPv6 address, with an
 * optional port. Anything else (a path, credentials, spaces) is not used as the origin.
 */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})?)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const trustCache = new WeakMap<readonly string[], (address: string, hop: number) => boolean>();

/** Whether the request came through a proxy the operator listed (CHORUS_TRUSTED_PROXIES). */
function fromTrustedProxy(request: IncomingMessage, trustedProxies: readonly string[]): boolean {
  if (trustedProxies.length === 0) return false;
  let trust = trustCache.get(trustedProxies);
  if (trust === undefined) {
    trust = proxyaddr.compile([...trustedProxies]);
    trustCache.set(trustedProxies, trust);
  }
  return trust(request.socket.remoteAddress ?? '', 0);
}

/** The first value of a header a proxy may have appended to (`a, b`). */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim();
}

/**
 * The http(s) origin clients reach this server at, for the URLs built into answers: CHORUS_PUBLIC_URL
 * when set; otherwise the scheme and Host the request used, so a client that came by 127.0.0.1, by
 * `localhost` or by a LAN name gets URLs it can reach. X-Forwarded-Host/-Proto are believed only
 * from a trusted proxy's socket. `fallbackHttpUrl` (the listener's URL) stands in for a missing or malformed Host.
 */
export function publicHttpOrigin(
  request: IncomingMessage,
  http: Pick<HttpOptions, 'publicUrl' | 'trustedProxies'>,
  fallbackHttpUrl: string,
): string {
  if (http.publicUrl) return http.publicUrl.replace(/\/+$/, '');
  const proxied = fromTrustedProxy(request, http.trustedProxies);
  const host = (proxied ? firstValue(request.headers['x-forwarded-host']) : undefined) ?? request.headers.host;
  const forwardedProto = proxied ? firstValue(request.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const scheme =
    forwardedProto === 'https' || forwardedProto === 'http'
      ? forwardedProto
      : (request.socket as Partial<TLSSocket>).encrypted
        ? 'https'
        : 'http';
  return host !== undefined && HOST.test(host) ? `${scheme}://${host}` : fallbackHttpUrl;
}

/** The gateway URL for the same origin: ws(s):// where the API is http(s)://; the gateway shares its port. */
export function publicGatewayUrl(
  request: IncomingMessage,
  http: Pick<HttpOptions, 'publicUrl' | 'trustedProxies'>,
  fallbackHttpUrl: string,
): string {
  return publicHttpOrigin(request, http, fallbackHttpUrl).replace(/^http/, 'ws');
}

/** publicHttpOrigin of a route's request. */
export function originOf(ctx: EdgeContext, deps: EdgeDeps): string {
  return publicHttpOrigin(ctx.req, deps.http, deps.publicUrl);
}

/** publicGatewayUrl of a route's request (GET /gateway, discovery). */
export function gatewayUrlOf(ctx: EdgeContext, deps: EdgeDeps): string {
  return publicGatewayUrl(ctx.req, deps.http, deps.publicUrl);
}
