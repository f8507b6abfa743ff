import { keyOwnedBy, startCluster, stopCluster } from '../test/cluster/transport/transportHarness.js';
import { summarize } from './stats.js';

/** p50/p99 of one kind of actor call. */
export interface CallLatency {
  readonly p50: number;
  readonly p99: number;
}

/**
 * Local versus remote actor asks: two real ActorSystems with their hosts and gRPC servers in one
 * process on 127.0.0.1 (echo actors, so only the hop is measured), `count` sequential asks each
 * after a warm-up.
 */
export async function measureActorCalls(count = 2_000): Promise<{ local: CallLatency; remote: CallLatency }> {
  const { nodes, ring } = await startCluster(2);
  const [a, b] = nodes;
  if (!a || !b) throw new Error('cluster did not start');
  const localKey = keyOwnedBy(ring, 'channel', a.id);
  const remoteKey = keyOwnedBy(ring, 'channel', b.id);
  const ask = (key: string) =>
    a.system.ask('channel', key, { command: { $case: 'getChannel', getChannel: { body: '' } } });
  const time = async (key: string): Promise<CallLatency> => {
    for (let index = 0; index < 200; index += 1) await ask(key);
    const samples: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const t0 = performance.now();
      await ask(key);
      samples.push(performance.now() - t0);
    }
    const { p50, p99 } = summarize(samples);
    return { p50, p99 };
  };
  try {
    return { local: await time(localKey), remote: await time(remoteKey) };
  } finally {
    await stopCluster(nodes);
  }
}
