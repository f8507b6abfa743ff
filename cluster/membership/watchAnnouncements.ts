import { ServiceUnavailableError } from '../../src/domain/errors.js';
import type { MembershipRedis } from './RedisMembership.js';

/**
 * Subscribes to a channel on which writers announce a new version number (membership views, placement pins).
 * Subscribing takes a connection of its own; node-redis subscribes again by itself after a reconnect. A first
 * connect that fails is final (the caller reports it); once ready, it reconnects forever. A lost announcement is
 * caught by the caller's periodic read. Resolves to the function that stops watching.
 */
export async function watchAnnouncements(
  redis: MembershipRedis,
  watch: { readonly connectionName: string; readonly channel: string; readonly what: string },
  listener: (version: number) => void,
): Promise<() => Promise<void>> {
  let ready = false;
  const subscriber = redis.duplicate({
    name: watch.connectionName,
    disableOfflineQueue: false,
    socket: { reconnectStrategy: (retries, cause) => (ready ? Math.min((retries + 1) * 100, 1_000) : cause) },
  });
  subscriber.on('error', () => undefined); // outages are reported by the membership heartbeat, once
  subscriber.on('ready', () => {
    ready = true;
  });
  try {
    await subscriber.connect();
    await subscriber.subscribe(watch.channel, (message) => {
      listener(Number(message));
    });
  } catch (error) {
    subscriber.destroy();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceUnavailableError(`${watch.what} watch failed: ${reason}`);
  }
  return () => {
    subscriber.destroy();
    return Promise.resolve();
  };
}
