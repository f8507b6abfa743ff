import type { Middleware } from 'koa';
import proxyaddr from 'proxy-addr';

/**
 * Sets `ctx.ip` to the client's address. X-Forwarded-For is read only through proxies the operator
 * listed (CHORUS_TRUSTED_PROXIES), walking it from the socket's peer outwards and stopping at the first
 * address that is not a trusted proxy; with no list, the header is ignored, so a client that reaches
 * the server directly cannot pick the address its per-IP limits are counted under.
 */
export function clientIp(trustedProxies: readonly string[]): Middleware {
  const trust = proxyaddr.compile([...trustedProxies]);
  return (ctx, next) => {
    ctx.request.ip = trustedProxies.length === 0 ? (ctx.req.socket.remoteAddress ?? '') : proxyaddr(ctx.req, trust);
    return next(); // not awaited: nothing happens here after the request (no async layer per request)
  };
}
