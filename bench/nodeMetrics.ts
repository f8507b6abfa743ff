// Counts a message causes between processes, read from each node's GET /metrics (docs/metrics.md) before and
// after a window: remote calls by kind, storage operations by backend, commit fence checks; and the commands
// Redis ran meanwhile.
import { createClient } from 'redis';
import { parseMetrics } from '../test/integration/metricsText.js';

/** The counters the cost section divides by messages, summed over every node, e.g. `remote ask ok`. */
export type Counts = Record<string, number>;

/** Which series are counted and under what name (labels kept: the ones that say what kind of hop it was). */
const COUNTED: readonly { metric: string; name: (labels: Readonly<Record<string, string>>) => string }[] = [
  { metric: 'chorus_remote_calls_total', name: (l) => `remote ${l.call ?? '?'} ${l.outcome ?? '?'}` },
  {
    metric: 'chorus_storage_operation_duration_seconds_count',
    name: (l) => `storage ${l.backend ?? '?'} ${l.operation ?? '?'}`,
  },
  { metric: 'chorus_lease_commit_checks_total', name: (l) => `fence check ${l.outcome ?? '?'}` },
];

/** The counted series of one node, summed by name (a node without metrics counts nothing). */
export async function scrapeCounts(baseUrl: string): Promise<Counts> {
  const response = await fetch(`${baseUrl}/metrics`);
  if (!response.ok) return {};
  const counts: Counts = {};
  for (const { name: metric, labels, value } of parseMetrics(await response.text())) {
    const counted = COUNTED.find((entry) => entry.metric === metric);
    if (!counted) continue;
    const name = counted.name(labels);
    counts[name] = (counts[name] ?? 0) + value;
  }
  return counts;
}

/** Scrapes every node now; the returned function scrapes again and gives what each count grew by, all nodes summed. */
export async function startCountWindow(baseUrls: readonly string[]): Promise<() => Promise<Counts>> {
  const scrapeAll = async (): Promise<Counts> => {
    const total: Counts = {};
    for (const counts of await Promise.all([...baseUrls.map(scrapeCounts), redisCommandCounts()]))
      for (const [name, value] of Object.entries(counts)) total[name] = (total[name] ?? 0) + value;
    return total;
  };
  const before = await scrapeAll();
  return async () => {
    const after = await scrapeAll();
    const grown: Counts = {};
    for (const [name, value] of Object.entries(after)) {
      const delta = value - (before[name] ?? 0);
      if (delta > 0) grown[name] = delta;
    }
    return grown;
  };
}

/**
 * Commands the Redis at `url` has run so far, by command (INFO commandstats), for commands per message.
 * Every client of that Redis counts, neighbours' tests too: the embedded window shows how many that is.
 */
export async function redisCommandCounts(
  url = process.env.CHORUS_REDIS_URL ?? 'redis://127.0.0.1:6379',
): Promise<Counts> {
  const redis = createClient({ url, RESP: 2, socket: { reconnectStrategy: false } });
  redis.on('error', () => undefined); // an unreachable Redis counts nothing
  try {
    await redis.connect();
    const counts: Counts = {};
    for (const match of (await redis.info('commandstats')).matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm))
      counts[`redis ${match[1] ?? '?'}`] = Number(match[2]);
    return counts;
  } catch {
    return {};
  } finally {
    redis.destroy();
  }
}
