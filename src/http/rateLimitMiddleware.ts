import type { Middleware } from 'koa';
import { RateLimitedError } from '../domain/errors.js';
import { tokenFromHeader, tokenUserId } from '../domain/tokens.js';
import type { EdgeDeps, EdgeState } from './EdgeDeps.js';

const MESSAGE_ROUTE = /\/channels\/(\d+)\/messages$/;

/**
 * Discord-style limits with X-RateLimit-* headers: a global per-user (or per-IP) limit per second, and
 * the message-send bucket per user and channel. Over a limit → 429 with retry_after.
 */
export function rateLimitMiddleware(deps: EdgeDeps): Middleware<EdgeState> {
  const { limiter, http } = deps;
  return async (ctx, next) => {
    const token = tokenFromHeader(ctx.get('authorization'));
    const who = (token !== undefined ? tokenUserId(token) : undefined) ?? `ip:${ctx.ip}`;
    const channel = ctx.method === 'POST' ? MESSAGE_ROUTE.exec(ctx.path)?.[1] : undefined;
    const bucket = channel === undefined ? undefined : `messages:${channel}`;
    const windows = [{ key: `global:${who}`, limit: http.globalRateLimitPerSecond, windowMs: 1000 }];
    if (bucket !== undefined)
      windows.push({ key: `${bucket}:${who}`, limit: http.messageRateLimit, windowMs: http.messageRateWindowMs });
    const [global, hit] = await limiter.hit(windows);
    if (global && !global.allowed) throw new RateLimitedError(global.resetAfterMs, true, 'global', global.limit);
    if (bucket !== undefined && hit) {
      if (!hit.allowed) throw new RateLimitedError(hit.resetAfterMs, false, bucket, hit.limit);
      ctx.set('X-RateLimit-Limit', String(hit.limit));
      ctx.set('X-RateLimit-Remaining', String(hit.remaining));
      ctx.set('X-RateLimit-Reset-After', (hit.resetAfterMs / 1000).toFixed(3));
      ctx.set('X-RateLimit-Reset', ((Date.now() + hit.resetAfterMs) / 1000).toFixed(3));
      ctx.set('X-RateLimit-Bucket', 'channel-messages');
    }
    await next();
  };
}
