// What a Channel's flush of last_message_id costs in cluster mode, before and after it stopped reading the
// record (ChannelStore.saveOwnerFields): the read and whole-record save it used to make (a read in the
// flush, another in save, a logged batch of the channel's rows) against one UPDATE per row. CPU-seconds
// per 1,000 flushes of the Cassandra JVM and of this process (the node's side: the driver), in
// alternating rounds so the shared machine's load falls on both alike. `npx tsx bench/clusterFlushCost.ts`.
import { createCassandraStores } from '../src/store/cassandra/createCassandraStores.js';
import { aChannel, nextId } from '../test/contract/records.js';
import { cassandraContactPoints, cassandraDataCenter, dropTestKeyspaces } from '../test/support/cassandra.js';
import { cassandraPids, startCpuWindow } from './cpuAccounting.js';

const FLUSHES = Number(process.env.BENCH_FLUSHES ?? 2_000);
const ROUNDS = 3;
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 10);
const keyspace = `chat_test_flushcost${Date.now().toString(36)}`;

const stores = await createCassandraStores({
  contactPoints: [...cassandraContactPoints],
  localDataCenter: cassandraDataCenter,
  keyspace,
});
const channels = Array.from({ length: IN_FLIGHT }, () => aChannel());
for (const channel of channels) await stores.channels.save(channel);

/** The flush as it was: read the record, keep the newer id, save it whole (save reads it again). */
async function readAndRewrite(channelId: string, lastMessageId: string): Promise<void> {
  const stored = await stores.channels.get(channelId);
  if (stored) await stores.channels.save({ ...stored, last_message_id: lastMessageId });
}

async function round(flush: (index: number) => Promise<void>): Promise<{ cassandra: number; node: number }> {
  const window = startCpuWindow({ cassandra: cassandraPids() });
  const started = process.cpuUsage();
  let sent = 0;
  await Promise.all(
    channels.map(async (_, index) => {
      while (sent < FLUSHES) {
        sent += 1;
        await flush(index);
      }
    }),
  );
  const used = process.cpuUsage(started);
  const per1000 = (seconds: number): number => (seconds / FLUSHES) * 1000;
  return { cassandra: per1000(window().cassandra ?? 0), node: per1000((used.user + used.system) / 1e6) };
}

const before = (index: number): Promise<void> => readAndRewrite(channels[index]?.id ?? '', nextId());
const after = (index: number): Promise<void> =>
  stores.channels.saveOwnerFields(channels[index] ?? aChannel(), {
    last_message_id: nextId(),
    last_pin_timestamp: null,
  });

try {
  await round(before); // warm-up: prepared statements, JIT of both sides
  await round(after);
  const rows: { before: { cassandra: number; node: number }[]; after: { cassandra: number; node: number }[] } = {
    before: [],
    after: [],
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    rows.before.push(await round(before));
    rows.after.push(await round(after));
  }
  const fmt = (values: { cassandra: number; node: number }[]): string =>
    values.map((value) => `${value.cassandra.toFixed(2)} + ${value.node.toFixed(2)}`).join(', ');
  console.log(`CPU-seconds per 1,000 flushes, Cassandra + this process (${FLUSHES} a round, ${IN_FLIGHT} in flight):`);
  console.log(`  read + whole-record save (before): ${fmt(rows.before)}`);
  console.log(`  saveOwnerFields (after):           ${fmt(rows.after)}`);
} finally {
  await stores.close();
  await dropTestKeyspaces([keyspace]);
}
