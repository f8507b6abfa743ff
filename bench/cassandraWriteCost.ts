// What one message costs the Cassandra JVM, with and without a counter update beside its insert (the
// instance counts, src/store/cassandra/CassandraInstanceCounter.ts), in CPU-seconds per 1,000 messages.
// Alternating rounds, so the shared machine's load falls on both alike. `npx tsx bench/cassandraWriteCost.ts`.
import cassandra from 'cassandra-driver';
import { createCassandraStores } from '../src/store/cassandra/createCassandraStores.js';
import { aMessage } from '../test/contract/records.js';
import { cassandraContactPoints, cassandraDataCenter, dropTestKeyspaces } from '../test/support/cassandra.js';
import { cassandraPids, startCpuWindow } from './cpuAccounting.js';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2_000);
const ROUNDS = 3;
const IN_FLIGHT = 10;
const keyspace = `chat_test_writecost${Date.now().toString(36)}`;

const stores = await createCassandraStores({
  contactPoints: [...cassandraContactPoints],
  localDataCenter: cassandraDataCenter,
  keyspace,
});
const raw = new cassandra.Client({
  contactPoints: [...cassandraContactPoints],
  localDataCenter: cassandraDataCenter,
  keyspace,
  encoding: { useBigIntAsLong: true },
});
await raw.connect();

async function round(counterPerMessage: boolean): Promise<number> {
  const window = startCpuWindow({ cassandra: cassandraPids() });
  let sent = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent < MESSAGES) {
        sent += 1;
        await stores.messages.insert(aMessage({ channel_id: String(1000 + (sent % 10)), content: `cost ${sent}` }));
        if (counterPerMessage)
          await raw.execute('UPDATE instance_counts SET count = count + ? WHERE name = ?', [1n, 'probe'], {
            prepare: true,
          });
      }
    }),
  );
  return ((window().cassandra ?? 0) / MESSAGES) * 1000;
}

try {
  await round(false); // warm-up: prepared statements, JIT of both sides
  const plain: number[] = [];
  const counted: number[] = [];
  for (let index = 0; index < ROUNDS; index += 1) {
    plain.push(await round(false));
    counted.push(await round(true));
  }
  const fmt = (values: number[]): string => values.map((value) => value.toFixed(2)).join(', ');
  console.log(`Cassandra CPU-seconds per 1,000 messages (${MESSAGES} a round, ${IN_FLIGHT} in flight):`);
  console.log(`  insert alone (counts summed per window): ${fmt(plain)}`);
  console.log(`  insert + one counter update per message: ${fmt(counted)}`);
} finally {
  await raw.shutdown();
  await stores.close();
  await dropTestKeyspaces([keyspace]);
}
