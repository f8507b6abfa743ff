import type { Context, Middleware } from 'koa';
import { RateLimitedError, RouteNotFoundError, toAppError } from '../domain/errors.js';
import type { Logger } from '../domain/Logger.js';

/**
 * The first middleware: turns every thrown error into a Discord-shaped JSON body (Koa's default
 * would write text/plain), and a request no route answered into a JSON 404.
 */
export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    // Discord's answers pass through a proxy that names itself; discord.py retries a 429 only when
    // this header is present (without it, it takes the 429 for a ban by the CDN and gives up).
    ctx.set('Via', '1.1 chorus');
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new RouteNotFoundError();
    } catch (thrown) {
      const error = toAppError(thrown);
      if (error.kind === 'internal')
        log.error('http_unhandled_error', { method: ctx.method, path: ctx.path, err: thrown });
      if (error instanceof RateLimitedError) setRateLimitHeaders(ctx, error);
      ctx.status = error.httpStatus;
      ctx.body = JSON.stringify(error.toDiscordJson());
      ctx.type = 'application/json';
    }
    // Koa appends "; charset=utf-8"; Oceanic, Eris and discord.py parse a body only when the type is
    // exactly what Discord sends.
    const type = ctx.response.get('Content-Type');
    if (type !== 'application/json' && ctx.response.type === 'application/json')
      ctx.set('Content-Type', 'application/json');
  };
}

function setRateLimitHeaders(ctx: Context, error: RateLimitedError): void {
  const seconds = (error.retryAfterMs / 1000).toFixed(3);
  ctx.set('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
  ctx.set('X-RateLimit-Limit', String(error.limit));
  ctx.set('X-RateLimit-Remaining', '0');
  ctx.set('X-RateLimit-Reset-After', seconds);
  ctx.set('X-RateLimit-Reset', ((Date.now() + error.retryAfterMs) / 1000).toFixed(3));
  ctx.set('X-RateLimit-Bucket', error.bucket);
  ctx.set('X-RateLimit-Scope', error.global ? 'global' : 'user');
  if (error.global) ctx.set('X-RateLimit-Global', 'true');
}
