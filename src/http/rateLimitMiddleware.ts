import type { Middleware } from 'koa';
import { RateLimitedError, toAppError } from '../domain/errors.js';
import { tokenFromHeader } from '../domain/tokens.js';
import type { EdgeContext, EdgeDeps, EdgeState } from './EdgeDeps.js';
import { requireCaller } from './routeKit.js';

const MESSAGE_ROUTE = /\/channels\/(\d+)\/messages$/;

/**
 * Whom a request counts against: the user, once its token is verified (signature, generation,
 * revocation: the same check the route makes, done once per request); otherwise the client's address.
 * A token that does not verify never names a user here, so nobody can spend another user's budget.
 */
async function bucketOwner(ctx: EdgeContext, deps: EdgeDeps): Promise<string> {
  if (tokenFromHeader(ctx.get('authorization')) === undefined) return `ip:${ctx.ip}`;
  try {
    return (await requireCaller(ctx, deps)).userId;
  } catch (error) {
    // Unreachable actors answer 503 from the route; a refused token is just an anonymous client here.
    if (toAppError(error).kind !== 'unauthenticated') throw error;
    return `ip:${ctx.ip}`;
  }
}

/**
 * Discord-style limits with X-RateLimit-* headers: a global per-user (or per-IP) limit per second, and
 * the message-send bucket per user and channel. Over a limit → 429 with retry_after.
 */
export function rateLimitMiddleware(deps: EdgeDeps): Middleware<EdgeState> {
  const { limiter, http } = deps;
  return async (ctx, next) => {
    const who = await bucketOwner(ctx as EdgeContext, deps);
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
