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
    const from = cluster.nodes.find((node) => node.nodeId === a.system.ownerOf('voice', lounge));
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

  /** Joins `users` to `channelId` from sessions whose actors and sockets are on `node` (a session id is placed by the ring). */
  async function joinFrom(
    node: RunningNode,
    users: TestUser[],
    guildId: string,
    channelId: string,
  ): Promise<InVoice[]> {
    const members: InVoice[] = [];
    for (const user of users) {
      for (let attempt = 0; ; attempt++) {
        const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
        gateways.push(client);
        const sessionId = ready['session_id'] as string;
        if (node.system.ownerOf('session', sessionId) !== node.nodeId && attempt < 20) continue;
        client.send(4, { guild_id: guildId, channel_id: channelId, self_mute: false, self_deaf: false });
        const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
        members.push({
          user,
          gateway: client,
          sessionId,
          voice: await connectVoice(user, sessionId, guildId, update.d),
        });
        break;
      }
    }
    return members;
  }

  /** Each member's next VOICE_SERVER_UPDATE after frame `marks[i]`; they follow it to `node`, and hear each other there. */
  async function followTo(node: RunningNode, members: InVoice[], marks: number[], guildId: string): Promise<void> {
    const updates = await Promise.all(
      members.map((each, index) =>
        each.gateway.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, {
          from: marks[index] ?? 0,
          timeoutMs: 15_000,
        }),
      ),
    );
    for (const update of updates) assert.equal(update.d.endpoint, node.voice?.endpoint, 'the surviving node is named');
    for (const [index, each] of members.entries()) {
      const update = (updates[index] as { d: VoiceServerJson }).d;
      each.voice = await connectVoice(each.user, each.sessionId, guildId, update);
    }
    const [speaker, listener] = members as [InVoice, InVoice];
    const frame = randomBytes(48);
    speaker.voice.sendAudio(frame, Number(node.voice?.port));
    assert.deepEqual(await listener.voice.receiveAudio(), { ssrc: speaker.voice.ssrc, payload: frame });
  }

  // Last: it stops a node of the cluster.
  it('rooms whose node left are re-homed (Guild rechecks on node_left, or on its activation elsewhere); members follow', async () => {
    const [a] = cluster.nodes as [RunningNode, RunningNode];
    const base = `${a.url}/api/v10`;
    const owner = await registerUser(base, 'owner');
    const member = await registerUser(base, 'member');
    /** A guild of both users, created until the ring places it on a node `wanted` accepts. */
    const guildOn = async (wanted: (nodeId: string) => boolean) => {
      for (let attempt = 0; ; attempt++) {
        const guild = await createGuild(base, owner.token, `voice room node left ${attempt}`);
        if (!wanted(a.system.ownerOf('guild', guild.id)) && attempt < 20) continue;
        await joinGuild(base, owner.token, guild.channelId, member.token);
        return guild;
      }
    };
    /** A voice channel of `guildId` created until the ring places its room on `nodeId`. */
    const roomOn = async (guildId: string, nodeId: string) => {
      for (let attempt = 0; ; attempt++) {
        const body = { name: `lounge-${attempt}`, type: 2 };
        const path = `/guilds/${guildId}/channels`;
        const { id } = await api<{ id: string }>(base, 'POST', path, { token: owner.token, body, expect: 201 });
        if (a.system.ownerOf('voice', id) === nodeId || attempt >= 20) return id;
      }
    };
    // The first guild stays with its Guild actor; the second goes with the node, Guild and room alike.
    const kept = await guildOn(() => true);
    const stays = cluster.nodes.find((node) => node.nodeId === a.system.ownerOf('guild', kept.id));
    const goes = cluster.nodes.find((node) => node !== stays);
    assert.ok(stays?.voice && goes?.voice);
    const lost = await guildOn((nodeId) => nodeId === goes.nodeId);
    assert.equal(a.system.ownerOf('guild', lost.id), goes.nodeId, 'the second Guild runs on the node that goes');
    const keptRoom = await roomOn(kept.id, goes.nodeId);
    const lostRoom = await roomOn(lost.id, goes.nodeId);
    const keptMembers = await joinFrom(stays, [owner, member], kept.id, keptRoom);
    const lostMembers = await joinFrom(stays, [owner, member], lost.id, lostRoom);

    const keptMarks = keptMembers.map((each) => each.gateway.frames.length);
    const lostMarks = lostMembers.map((each) => each.gateway.frames.length);
    await goes.close();
    // The Guild that stays is told node_left and rechecks its rooms at once.
    await followTo(stays, keptMembers, keptMarks, kept.id);
    // The other Guild runs on the survivor now (told node_left there, or activated anew: both recheck).
    await api(`${stays.url}/api/v10`, 'GET', `/guilds/${lost.id}`, { token: owner.token, expect: 200 });
    await followTo(stays, lostMembers, lostMarks, lost.id);
  });
});
