import { Redis } from 'ioredis';
import type { Logger } from '../../domain/Logger.js';

/** Options of a Redis connection. */
export interface RedisConnectOptions {
  /** A command without a reply for this long fails (so callers notice an outage quickly). */
  readonly commandTimeoutMs?: number;
  /** Name shown in `CLIENT LIST` and in log lines. */
  readonly name?: string;
}

/**
 * Opens a Redis connection for coordination (membership, leases, rate limits). Commands fail fast
 * while Redis is unreachable instead of queueing (callers keep their last view and report unhealthy);
 * the client reconnects by itself. The outage is logged once, and its end once.
 */
export async function connectRedis(url: string, log: Logger, options: RedisConnectOptions = {}): Promise<Redis> {
  const name = options.name ?? 'chorus';
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: name,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1_000),
  });
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn('redis_unreachable', { connection: name, err: error.message });
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('redis_recovered', { connection: name });
  });
  await redis.connect();
  // Only after the first connect: from now on a command during an outage fails at once.
  redis.options.enableOfflineQueue = false;
  return redis;
}
