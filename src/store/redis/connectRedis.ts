import { createClient } from 'redis';
import type { Logger } from '../../domain/Logger.js';
import { watchConnection } from './connectionWatchdog.js';

/** Options of a Redis connection. */
export interface RedisConnectOptions {
  /**
   * A connection whose PING (sent this often) goes unanswered this long is failed, with every command
   * waiting on it, and opened again: callers notice a hung Redis within about twice this.
   */
  readonly commandTimeoutMs?: number;
  /** Name shown in `CLIENT LIST` and in log lines. */
  readonly name?: string;
}

/** A node-redis client speaking RESP2 (replies as ioredis gave them: flat arrays, integers as numbers). */
export type RedisConnection = ReturnType<typeof resp2Client>;

function resp2Client(url: string, name: string, retry: ReconnectRetry) {
  return createClient({
    url,
    name,
    RESP: 2,
    // A command during an outage fails at once instead of waiting in the offline queue; the first
    // connect is awaited before the client is handed out, so no command is refused while it starts.
    // A command sent just before the connection hung is bounded by the watchdog (connectionWatchdog.ts),
    // not by a per-command timeout: node-redis arms an AbortSignal.timeout for every command unless the
    // timeout is 0 (its default is 5 s).
    disableOfflineQueue: true,
    commandOptions: { timeout: 0 },
    socket: { reconnectStrategy: retry.strategy },
  });
}

/**
 * Reconnection of a client that has been ready once: 100 ms more per attempt, at most 1 s, forever.
 * Before the first ready a failure is final (connect rejects), so a node refuses to start against an
 * unreachable Redis rather than hanging in its start-up.
 */
interface ReconnectRetry {
  readonly strategy: (retries: number, cause: Error) => number | Error;
  /** Call on 'ready'. */
  readonly connected: () => void;
}

function reconnectRetry(): ReconnectRetry {
  let everReady = false;
  return {
    strategy: (retries, cause) => (everReady ? Math.min((retries + 1) * 100, 1_000) : cause),
    connected: () => {
      everReady = true;
    },
  };
}

/**
 * Opens a Redis connection for coordination (membership, leases, rate limits). Commands fail fast
 * while Redis is unreachable instead of queueing (callers keep their last view and report unhealthy);
 * the client reconnects by itself. The outage is logged once, and its end once. The 'error' listener
 * is required: node-redis emits one per failed reconnect, and an unhandled one ends the process.
 */
export async function connectRedis(
  url: string,
  log: Logger,
  options: RedisConnectOptions = {},
): Promise<RedisConnection> {
  const name = options.name ?? 'chorus';
  const retry = reconnectRetry();
  const redis = resp2Client(url, name, retry);
  const deadlineMs = options.commandTimeoutMs ?? 1_000;
  let down = false;
  redis.on('error', (error: Error) => {
    if (down) return;
    down = true;
    log.warn('redis_unreachable', { connection: name, err: error.message });
  });
  redis.on('ready', () => {
    retry.connected();
    if (!down) return;
    down = false;
    log.info('redis_recovered', { connection: name });
  });
  await redis.connect();
  watchConnection(redis, {
    intervalMs: deadlineMs,
    deadlineMs,
    onHung: (error) => {
      if (!down) log.warn('redis_unreachable', { connection: name, err: error.message });
      down = true;
    },
  });
  return redis;
}
