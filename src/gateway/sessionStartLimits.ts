import type { GatewayOptions } from '../config/Config.js';
import type { RateLimitWindow } from '../http/RateLimiter.js';

/** Discord's session-start budget window: 24 h. */
export const SESSION_START_WINDOW_MS = 86_400_000;

/**
 * The Identify concurrency window of one user's shard: bucket `shard_id % max_concurrency`, one
 * Identify per bucket per window; undefined when the window is 0 (the check is off).
 */
export function identifyWindow(userId: string, shardId: number, options: GatewayOptions): RateLimitWindow | undefined {
  if (options.identifyWindowMs <= 0) return undefined;
  const bucket = shardId % options.maxConcurrency;
  return { key: `gw:identify:${userId}:${bucket}`, limit: 1, windowMs: options.identifyWindowMs };
}

/** A user's daily session-start budget (GET /gateway/bot reads it; every admitted Identify counts). */
export function sessionStartWindow(userId: string, options: GatewayOptions): RateLimitWindow {
  return { key: `gw:starts:${userId}`, limit: options.sessionStartLimit, windowMs: SESSION_START_WINDOW_MS };
}
