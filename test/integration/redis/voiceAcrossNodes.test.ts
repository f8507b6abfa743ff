import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import type { RunningNode } from '../../../src/node/RunningNode.js';
import { until } from '../../support/clusterNode.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { InProcessCluster } from '../../support/inProcessCluster.js';
import { api, registerUser } from '../../support/testServer.js';
import { createGuild, joinGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceStateJson } from '../gateway/voiceFixtures.js';
import { voiceAcrossNodes, type OpenedClients } from '../voice/voiceAcrossNodes.js';

/**
 * A resume window short enough that a session whose node left ends (and leaves voice) within the test, long
 * enough that the listing after the failover is read first: a session actor placed on the node that left
 * detaches (op 7) even when its socket is on the survivor, and ends when the window lapses.
 */
const RESUME_WINDOW_MS = 4_000;

describe('voice across cluster nodes in one process (Redis membership, gRPC; SQLite for the records)', function () {
  this.timeout(60_000);
  let cluster: InProcessCluster;
  const opened: OpenedClients = { gateways: [], voices: [] };

  before(async function () {
    this.timeout(60_000);
    cluster = await InProcessCluster.start(2, { CHORUS_RESUME_WINDOW_MS: String(RESUME_WINDOW_MS) });
  });
  after(async () => {
    await Promise.all(opened.voices.map((voice) => voice.close().catch(() => undefined)));
    await Promise.all(opened.gateways.map((gateway) => gateway.drop()));
    await cluster?.stop();
  });

  it("sends members whose sessions are on different nodes to the ring owner's voice service", async () => {
    const nodes = cluster.nodes;
    const named = (node: RunningNode) => `node${nodes.indexOf(node) + 1}`;
    const reach = (node: RunningNode) => ({
      name: named(node),
      api: `${node.url}/api/v10`,
      gatewayUrl: node.gatewayUrl,
    });
    const [a, b] = nodes as [RunningNode, RunningNode];
    await voiceAcrossNodes(
      reach(a),
      reach(b),
      (key) => {
        const ownerId = a.system.ownerOf('voice', key.slice('voice:'.length));
        const host = nodes.find((node) => node.nodeId === ownerId);
        if (!host?.voice) throw new Error(`${key} is placed on ${ownerId}, which runs no voice service here`);
        return Promise.resolve({ name: named(host), voiceEndpoint: host.voice.endpoint });
      },
      opened,
    );
  });

  it('a Guild that fails over still lists who is in voice; a session whose node left leaves voice after the window', async () => {
    const [first] = cluster.nodes as [RunningNode];
    const owner = await registerUser(`${first.url}/api/v10`, 'owner');
    const member = await registerUser(`${first.url}/api/v10`, 'member');
    const guest = await registerUser(`${first.url}/api/v10`, 'guest');
    const guild = await createGuild(`${first.url}/api/v10`, owner.token, 'voice failover');
    await joinGuild(`${first.url}/api/v10`, owner.token, guild.channelId, member.token);
    await joinGuild(`${first.url}/api/v10`, owner.token, guild.channelId, guest.token);
    const body = { name: 'lounge', type: 2 };
    const path = `/guilds/${guild.id}/channels`;
    const lounge = (
      await api<{ id: string }>(`${first.url}/api/v10`, 'POST', path, { token: owner.token, body, expect: 201 })
    ).id;
    const dying = cluster.nodes.find((node) => node.nodeId === first.system.ownerOf('guild', guild.id));
    const survivor = cluster.nodes.find((node) => node !== dying);
    assert.ok(dying && survivor);

    // Two sessions on the node that stays, the guest's socket and the Guild actor on the one that goes.
    const sessions = await Promise.all(
      [
        { user: owner, node: survivor },
        { user: member, node: survivor },
        { user: guest, node: dying },
      ].map(async ({ user, node }) => {
        const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
        opened.gateways.push(client);
        client.send(4, { guild_id: guild.id, channel_id: lounge, self_mute: false, self_deaf: false });
        return { userId: user.id, sessionId: ready['session_id'] as string, client };
      }),
    );
    const watcher = (sessions[0] as (typeof sessions)[0]).client;
    for (const { userId } of sessions) {
      await watcher.waitForDispatch<VoiceStateJson>(
        'VOICE_STATE_UPDATE',
        (d) => d.user_id === userId && d.channel_id === lounge,
      );
    }
    assert.ok(dying.host.isActive('guild', guild.id), 'the Guild runs on the node that goes');

    await dying.close();
    await until(
      'the survivor to own the guild',
      () => Promise.resolve(survivor.system.ownerOf('guild', guild.id) === survivor.nodeId ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const { client, ready } = await GatewayClient.identified(survivor.gatewayUrl, owner.token);
    opened.gateways.push(client);
    const listed = (ready['guilds'] as { id: string; voice_states: VoiceStateJson[] }[]).find((g) => g.id === guild.id);
    assert.ok(survivor.host.isActive('guild', guild.id), 'the Guild was re-activated on the survivor');
    const states = (listed?.voice_states ?? []).map((state) => [state.user_id, state.session_id, state.channel_id]);
    for (const { userId, sessionId } of sessions.slice(0, 2)) {
      assert.ok(
        states.some((state) => state.join() === [userId, sessionId, lounge].join()),
        `${userId} is listed in the lounge: ${JSON.stringify(states)}`,
      );
    }

    // The guest's socket went with its node: its session ends once the resume window lapses, and leaves voice.
    const gone = await client.waitForDispatch<VoiceStateJson>(
      'VOICE_STATE_UPDATE',
      (d) => d.user_id === guest.id && d.channel_id === null,
      { timeoutMs: RESUME_WINDOW_MS + 10_000 },
    );
    assert.equal(gone.d.session_id, (sessions[2] as (typeof sessions)[0]).sessionId);
  });
});
