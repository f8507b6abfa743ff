import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'mocha';
import { RedisPinTable } from '../../../cluster/placement/RedisPinTable.js';
import type { RunningNode } from '../../../src/node/RunningNode.js';
import type { RedisConnection } from '../../../src/store/redis/connectRedis.js';
import { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';
import { until } from '../../support/clusterNode.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { InProcessCluster } from '../../support/inProcessCluster.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceServerJson, VoiceStateJson } from '../gateway/voiceFixtures.js';
import { RawVoiceClient } from '../voice/rawVoiceClient.js';
import { deleteKeys, plainClient, runPrefix } from './redisTestKit.js';

/** One member in voice: its gateway session and its voice client on the node hosting the room. */
interface InVoice {
  readonly user: TestUser;
  readonly gateway: GatewayClient;
  readonly sessionId: string;
  voice: RawVoiceClient;
}

/**
 * Stretch of issue 13 §1: when the ring places a voice channel on another node (here a placement pin; a node
 * joining takes the same path), the node that hosted the room hands it over: the Guild sends its members a new
 * VOICE_SERVER_UPDATE naming the new node and tells that node's room their states (a server mute follows).
 */
describe('a voice room the ring moves to another node (cluster-mode nodes in one process: Redis, gRPC)', function () {
  this.timeout(60_000);
  const prefix = runPrefix();
  let redis: RedisConnection;
  let cluster: InProcessCluster;
  const gateways: GatewayClient[] = [];
  const voices: RawVoiceClient[] = [];

  before(async function () {
    this.timeout(60_000);
    redis = await plainClient();
    cluster = await InProcessCluster.start(2, { CHORUS_REDIS_PREFIX: prefix });
  });
  after(async () => {
    await Promise.all(voices.map((voice) => voice.close().catch(() => undefined)));
    await Promise.all(gateways.map((gateway) => gateway.drop()));
    await cluster?.stop();
    await deleteKeys(redis, prefix);
    redis.destroy();
  });

  async function connectVoice(
    user: TestUser,
    sessionId: string,
    guildId: string,
    update: VoiceServerJson,
  ): Promise<RawVoiceClient> {
    const voice = await RawVoiceClient.connect(`ws://${update.endpoint}/?v=8`);
    voices.push(voice);
    const identify = { server_id: guildId, user_id: user.id, session_id: sessionId, token: update.token };
    await voice.join(identify, VoiceEncryptionMode.aesGcm);
    return voice;
  }

  it("sends the room's members to the new node with a fresh VOICE_SERVER_UPDATE; their states follow, they stay in voice", async () => {
    const [a, b] = cluster.nodes as [RunningNode, RunningNode];
    const base = `${a.url}/api/v10`;
    const owner = await registerUser(base, 'owner');
    const member = await registerUser(base, 'member');
    const guild = await createGuild(base, owner.token, 'voice room move');
    await joinGuild(base, owner.token, guild.channelId, member.token);
    const body = { name: 'lounge', type: 2 };
    const path = `/guilds/${guild.id}/channels`;
    const lounge = (await api<{ id: string }>(base, 'POST', path, { token: owner.token, body, expect: 201 })).id;
    const key = `voice:${lounge}`;
    const from = cluster.nodes.find((node) => node.nodeId === a.system.placeOf(key));
    const to = cluster.nodes.find((node) => node !== from);
    assert.ok(from?.voice && to?.voice);

    const members: InVoice[] = [];
    for (const [user, node] of [
      [owner, a],
      [member, b],
    ] as const) {
      const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
      gateways.push(client);
      client.send(4, { guild_id: guild.id, channel_id: lounge, self_mute: false, self_deaf: false });
      const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
      assert.equal(update.d.endpoint, from.voice.endpoint, 'the room is on its ring owner');
      const sessionId = ready['session_id'] as string;
      const voice = await connectVoice(user, sessionId, guild.id, update.d);
      members.push({ user, gateway: client, sessionId, voice });
    }
    const [speaker, listener] = members as [InVoice, InVoice];
    // The listener is server-muted before the move: the new node's room must learn it.
    const muted = speaker.gateway.frames.length;
    await api(base, 'PATCH', `/guilds/${guild.id}/members/${member.id}`, {
      token: owner.token,
      body: { mute: true },
      expect: 200,
    });
    await speaker.gateway.waitForDispatch<VoiceStateJson>('VOICE_STATE_UPDATE', (d) => d.mute, { from: muted });

    const marks = members.map((each) => each.gateway.frames.length);
    const pins = new RedisPinTable(redis, prefix);
    await pins.pin(key, to.nodeId.slice(0, to.nodeId.lastIndexOf('@')));
    const updates = await Promise.all(
      members.map((each, index) =>
        each.gateway.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, {
          from: marks[index] ?? 0,
          timeoutMs: 10_000,
        }),
      ),
    );
    for (const update of updates) assert.equal(update.d.endpoint, to.voice.endpoint, 'the new node is named');

    // Each client follows: identifies on the new node, then closes its old voice socket (1000), which is a move.
    const old = members.map((each) => each.voice);
    for (const [index, each] of members.entries()) {
      each.voice = await connectVoice(
        each.user,
        each.sessionId,
        guild.id,
        (updates[index] as { d: VoiceServerJson }).d,
      );
    }
    await Promise.all(old.map((voice) => voice.close()));

    const frame = randomBytes(64);
    speaker.voice.sendAudio(frame, to.voice.port);
    assert.deepEqual(await listener.voice.receiveAudio(), { ssrc: speaker.voice.ssrc, payload: frame });
    const stats = to.voice.stats;
    const droppedBefore = stats.dropped;
    for (let index = 0; index < 5; index++) listener.voice.sendAudio(randomBytes(20), to.voice.port);
    await until(
      'the muted listener dropped on the new node',
      () => Promise.resolve(stats.dropped - droppedBefore >= 5 || undefined),
      {
        timeoutMs: 5_000,
        everyMs: 10,
      },
    );

    // Both are still in voice: the old sockets closing was a hand-over, not a leave.
    const { client, ready } = await GatewayClient.identified(a.gatewayUrl, owner.token);
    gateways.push(client);
    const listed = (ready['guilds'] as { id: string; voice_states: VoiceStateJson[] }[]).find((g) => g.id === guild.id);
    assert.deepEqual(
      listed?.voice_states.map((state) => state.channel_id),
      [lounge, lounge],
    );
    await pins.unpin(key);
  });

  // Last: it stops a node of the cluster.
  it('a room whose node left is re-homed: the Guild rechecks it on node_left and its members are sent to the new node', async () => {
    const [a] = cluster.nodes as [RunningNode, RunningNode];
    const base = `${a.url}/api/v10`;
    const owner = await registerUser(base, 'owner');
    const member = await registerUser(base, 'member');
    const guild = await createGuild(base, owner.token, 'voice room node left');
    await joinGuild(base, owner.token, guild.channelId, member.token);
    const stays = cluster.nodes.find((node) => node.nodeId === a.system.ownerOf('guild', guild.id));
    assert.ok(stays?.voice);
    // A channel placed away from the Guild's node: the node that goes takes the room, not the Guild.
    let lounge = '';
    for (
      let attempt = 0;
      attempt < 20 && (lounge === '' || a.system.placeOf(`voice:${lounge}`) === stays.nodeId);
      attempt++
    ) {
      const body = { name: `lounge-${attempt}`, type: 2 };
      lounge = (
        await api<{ id: string }>(base, 'POST', `/guilds/${guild.id}/channels`, {
          token: owner.token,
          body,
          expect: 201,
        })
      ).id;
    }
    const goes = cluster.nodes.find((node) => node.nodeId === a.system.placeOf(`voice:${lounge}`));
    assert.ok(goes?.voice && goes !== stays, 'a room on the node that goes');

    // Sessions whose actors and sockets are on the node that stays (a session id is placed by the ring).
    const members: InVoice[] = [];
    for (const user of [owner, member]) {
      for (let attempt = 0; ; attempt++) {
        const { client, ready } = await GatewayClient.identified(stays.gatewayUrl, user.token);
        gateways.push(client);
        const sessionId = ready['session_id'] as string;
        if (stays.system.ownerOf('session', sessionId) !== stays.nodeId && attempt < 20) continue;
        client.send(4, { guild_id: guild.id, channel_id: lounge, self_mute: false, self_deaf: false });
        const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
        assert.equal(update.d.endpoint, goes.voice.endpoint);
        members.push({
          user,
          gateway: client,
          sessionId,
          voice: await connectVoice(user, sessionId, guild.id, update.d),
        });
        break;
      }
    }
    const marks = members.map((each) => each.gateway.frames.length);
    await goes.close();
    const updates = await Promise.all(
      members.map((each, index) =>
        each.gateway.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, {
          from: marks[index] ?? 0,
          timeoutMs: 15_000,
        }),
      ),
    );
    for (const update of updates) assert.equal(update.d.endpoint, stays.voice.endpoint, 'the surviving node is named');
    for (const [index, each] of members.entries()) {
      each.voice = await connectVoice(
        each.user,
        each.sessionId,
        guild.id,
        (updates[index] as { d: VoiceServerJson }).d,
      );
    }
    const [speaker, listener] = members as [InVoice, InVoice];
    const frame = randomBytes(48);
    speaker.voice.sendAudio(frame, stays.voice.port);
    assert.deepEqual(await listener.voice.receiveAudio(), { ssrc: speaker.voice.ssrc, payload: frame });
  });
});
