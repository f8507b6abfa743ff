import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'mocha';
import { startCluster, type ClusterNode, type TestCluster } from '../../support/clusterHarness.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import {
  addBot,
  createBot,
  createGuild,
  postMessage,
  type TestGuild,
} from '../../integration/gateway/gatewayFixtures.js';
import { INTENTS } from './clusterFixtures.js';

const BOT_INTENTS = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT;

describe('cluster: gateway clients on other nodes than the REST call', function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let a: ClusterNode;
  let b: ClusterNode;
  let c: ClusterNode;
  let owner: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];

  before(async function () {
    this.timeout(120_000);
    cluster = await startCluster({ nodes: 3 });
    [a, b, c] = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
    owner = await registerUser(a.api, 'owner');
    guild = await createGuild(b.api, owner.token, 'cluster lobby');
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`node logs:\n${cluster.logTails(25)}`);
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await cluster?.after();
  });

  it('delivers MESSAGE_CREATE for a message posted on node A to bots identified on nodes B and C', async () => {
    const onB = await createBot(a.api, owner.token, 'bot-b');
    const onC = await createBot(c.api, owner.token, 'bot-c');
    await addBot(b.api, owner.token, onB, guild.id);
    await addBot(c.api, owner.token, onC, guild.id);
    const clients = await Promise.all(
      [
        { node: b, bot: onB },
        { node: c, bot: onC },
      ].map(async ({ node, bot }) => {
        const { client, ready } = await GatewayClient.identified(node.gatewayUrl, bot.token, { intents: BOT_INTENTS });
        open.push(client);
        assert.equal((ready['user'] as { id: string }).id, bot.id);
        await client.waitForDispatch<{ id: string }>('GUILD_CREATE', (d) => d.id === guild.id, { timeoutMs: 10_000 });
        return client;
      }),
    );

    const posted = await postMessage(a.api, owner.token, guild.channelId, 'posted on node A');
    for (const client of clients) {
      const frame = await client.waitForDispatch<{ id: string; content: string; channel_id: string; guild_id: string }>(
        'MESSAGE_CREATE',
        (d) => d.id === posted.id,
        { timeoutMs: 10_000 },
      );
      assert.equal(frame.d.content, 'posted on node A');
      assert.equal(frame.d.channel_id, guild.channelId);
      assert.equal(frame.d.guild_id, guild.id);
    }
  });

  it('resumes on node B a session identified on node A: the missed dispatches in order, then RESUMED', async () => {
    const { client: first, ready } = await GatewayClient.identified(a.gatewayUrl, owner.token, {
      intents: BOT_INTENTS,
    });
    open.push(first);
    const before = await postMessage(c.api, owner.token, guild.channelId, 'before the disconnect');
    await first.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === before.id, { timeoutMs: 10_000 });
    const seq = first.lastSeq ?? 0;
    await first.close(4000); // not 1000: the session stays resumable

    const missed = [];
    for (const content of ['missed 1', 'missed 2', 'missed 3'])
      missed.push(await postMessage(c.api, owner.token, guild.channelId, content));
    const second = await GatewayClient.connect(b.gatewayUrl);
    open.push(second);
    await second.waitFor('op 10 Hello on node B', (frame) => frame.op === 10);
    second.send(6, { token: owner.token, session_id: ready['session_id'], seq });
    const resumed = await second.waitForDispatch('RESUMED', () => true, { timeoutMs: 10_000 });

    const replayed = second.dispatches<{ id: string }>('MESSAGE_CREATE');
    assert.deepEqual(
      replayed.map((frame) => frame.d.id),
      missed.map((message) => message.id),
    );
    assert.deepEqual(
      replayed.map((frame) => frame.s),
      [seq + 1, seq + 2, seq + 3],
    );
    assert.equal(resumed.s, seq + 4);
    const live = await postMessage(a.api, owner.token, guild.channelId, 'live after resume');
    const frame = await second.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === live.id, {
      timeoutMs: 10_000,
    });
    assert.equal(frame.s, seq + 5);
  });
});
