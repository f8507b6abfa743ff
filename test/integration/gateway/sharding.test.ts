import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, postMessage, type TestGuild } from './gatewayFixtures.js';

/** The shard of a guild for `count` shards: (id >> 22) % count. */
const shardOf = (guildId: string, count: number): number => Number((BigInt(guildId) >> 22n) % BigInt(count));

describe('gateway sharding', () => {
  let server: TestServer;
  let alice: TestUser;
  /** One guild on shard 0 of 2 and one on shard 1. */
  const byShard: TestGuild[] = [];
  const open: GatewayClient[] = [];

  /** Creates guilds until there is one on each of the two shards (ids follow the clock, so a few suffice). */
  async function guildsOnBothShards(): Promise<void> {
    for (let attempt = 0; attempt < 50 && (byShard[0] === undefined || byShard[1] === undefined); attempt += 1) {
      const guild = await createGuild(server.api, alice.token, `g${attempt}`);
      byShard[shardOf(guild.id, 2)] ??= guild;
    }
    if (byShard[0] === undefined || byShard[1] === undefined) throw new Error('no guild landed on one of the shards');
  }

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
    await guildsOnBothShards();
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  async function onShard(shard: number): Promise<GatewayClient> {
    const { client } = await GatewayClient.identified(server.gatewayUrl, alice.token, { shard: [shard, 2] });
    open.push(client);
    return client;
  }

  it('puts in READY only the guilds of the session’s shard', async () => {
    for (const shard of [0, 1]) {
      const client = await onShard(shard);
      const ready = client.dispatches('READY')[0]?.d ?? {};
      const ids = (ready['guilds'] as { id: string }[]).map((guild) => guild.id);
      assert.ok(ids.length > 0);
      assert.ok(
        ids.every((id) => shardOf(id, 2) === shard),
        `shard ${shard} got ${ids.join(',')}`,
      );
      assert.ok(ids.includes(byShard[shard]?.id ?? ''));
    }
  });

  it('delivers MESSAGE_CREATE and GUILD_CREATE only to the session of the guild’s shard', async () => {
    const sessions = [await onShard(0), await onShard(1)];
    const sent: { id: string }[] = [];
    for (const shard of [0, 1]) {
      sent[shard] = await postMessage(server.api, alice.token, byShard[shard]?.channelId ?? '', `to shard ${shard}`);
    }
    for (const shard of [0, 1]) {
      await sessions[shard]?.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === sent[shard]?.id);
    }
    // Absence is proven by order: the user actor tells both sessions of a new guild in one turn, so once one
    // session shows its GUILD_CREATE, the other has the news queued before any message posted afterwards.
    const fresh = await createGuild(server.api, alice.token, 'late');
    const target = shardOf(fresh.id, 2);
    await sessions[target]?.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === fresh.id);
    const closing = await postMessage(server.api, alice.token, byShard[1 - target]?.channelId ?? '', 'closing');
    await sessions[1 - target]?.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === closing.id);
    for (const shard of [0, 1]) {
      const creates = sessions[shard]?.dispatches<{ guild_id: string }>('MESSAGE_CREATE') ?? [];
      assert.ok(
        creates.every((frame) => shardOf(frame.d.guild_id, 2) === shard),
        `shard ${shard} got another's message`,
      );
      const guilds = sessions[shard]?.dispatches<{ id: string }>('GUILD_CREATE') ?? [];
      assert.deepEqual(
        guilds.map((frame) => frame.d.id),
        shard === target ? [fresh.id] : [],
      );
    }
  });
});
