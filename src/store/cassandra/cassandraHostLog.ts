import type cassandra from 'cassandra-driver';

import type { Logger } from '../../domain/Logger.js';

/** How often a node reported down is checked for being usable again (for the log line only). */
const RECHECK_MS = 500;

/**
 * Logs when the driver marks a Cassandra node down (`cassandra_host_down`) and when it can use it again
 * (`cassandra_host_up`, with how long it was down). The driver's own `hostUp` event is not enough: after
 * losing every node it rebuilds its host list, and the node comes back as a new Host object that starts
 * up, with no event. Returns the stop function (called when the stores close).
 */
export function logHostAvailability(client: cassandra.Client, log: Logger): () => void {
  const watching = new Map<string, ReturnType<typeof setInterval>>();
  client.on('hostDown', (host: cassandra.Host) => {
    const { address } = host;
    if (watching.has(address)) return;
    const since = Date.now();
    log.warn('cassandra_host_down', { host: address });
    const timer = setInterval(() => {
      // The typings say get() always finds one; a node removed from the ring is not found.
      const current = client.hosts.get(address) as cassandra.Host | undefined;
      if (!current?.isUp()) return;
      clearInterval(timer);
      watching.delete(address);
      log.info('cassandra_host_up', { host: address, downMs: Date.now() - since });
    }, RECHECK_MS);
    timer.unref();
    watching.set(address, timer);
  });
  return () => {
    for (const timer of watching.values()) clearInterval(timer);
    watching.clear();
  };
}
