import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import type { RunningNode } from '../../../src/node/RunningNode.js';
import { VoiceEncryptionMode, VoiceOp } from '../../../src/voice/voiceProtocol.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { InProcessCluster } from '../../support/inProcessCluster.js';
import { api, registerUser } from '../../support/testServer.js';
import { createGuild, joinGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceServerJson } from '../gateway/voiceFixtures.js';
import { RawVoiceClient } from '../voice/rawVoiceClient.js';

/**
 * The Guild's decisions cross nodes: its tell to the voice room `voice:<channel id>` travels by gRPC to the node
 * the ring places the channel on, whose voice service closes the member (4014) the moderator disconnected.
 */
describe('voice moderation across cluster nodes in one process (Redis membership, gRPC; SQLite for the records)', function () {
  this.timeout(60_000);
  let cluster: InProcessCluster;
  const gateways: GatewayClient[] = [];
  const voices: RawVoiceClient[] = [];

  before(async function () {
    this.timeout(60_000);
    cluster = await InProcessCluster.start(2);
  });
  after(async () => {
    await Promise.all(voices.map((voice) => voice.close().catch(() => undefined)));
    await Promise.all(gateways.map((gateway) => gateway.drop()));
    await cluster?.stop();
  });

  it("a member a moderator disconnects is closed 4014 by the voice service of the channel's node, not the Guild's", async () => {
    const [first] = cluster.nodes as [RunningNode, RunningNode];
    const base = `${first.url}/api/v10`;
    const owner = await registerUser(base, 'owner');
    const member = await registerUser(base, 'member');
    const guild = await createGuild(base, owner.token, 'voice moderation across nodes');
    await joinGuild(base, owner.token, guild.channelId, member.token);
    const guildNode = first.system.ownerOf('guild', guild.id);
    // A channel the ring places away from the Guild (each channel id lands on either node, so a few tries do).
    let lounge = '';
    for (
      let attempt = 0;
      attempt < 20 && (lounge === '' || first.system.ownerOf('voice', lounge) === guildNode);
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
    const roomNode = cluster.nodes.find((node) => node.nodeId === first.system.ownerOf('voice', lounge));
    assert.ok(roomNode && roomNode.nodeId !== guildNode, 'a voice channel placed on the node without the Guild');

    const inVoice = await Promise.all(
      [owner, member].map(async (user, index) => {
        const node = cluster.nodes[index] as RunningNode;
        const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
        gateways.push(client);
        client.send(4, { guild_id: guild.id, channel_id: lounge, self_mute: false, self_deaf: false });
        const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
        const voice = await RawVoiceClient.connect(`ws://${update.d.endpoint}/?v=8`);
        voices.push(voice);
        const sessionId = ready['session_id'] as string;
        const identify = { server_id: guild.id, user_id: user.id, session_id: sessionId, token: update.d.token };
        await voice.join(identify, VoiceEncryptionMode.aesGcm);
        return voice;
      }),
    );
    const [ownerVoice, memberVoice] = inVoice as [RawVoiceClient, RawVoiceClient];

    const patchedAt = performance.now();
    await api(base, 'PATCH', `/guilds/${guild.id}/members/${member.id}`, {
      token: owner.token,
      body: { channel_id: null },
      expect: 200,
    });
    assert.equal((await memberVoice.closed).code, 4014, "the member's voice socket closed 4014 (Disconnected)");
    console.log(
      `      PATCH sent to the voice socket on the other node closing 4014: ${(performance.now() - patchedAt).toFixed(1)} ms`,
    );
    assert.deepEqual((await ownerVoice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: member.id });
    assert.ok(roomNode.host.isActive('voice', lounge), "the voice room actor ran on the channel's node");
  });
});
