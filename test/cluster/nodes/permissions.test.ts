import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { api } from '../../support/testServer.js';
import {
  Bits,
  fails,
  guildWorld,
  memberOverwrite,
  send,
  textChannel,
  type GuildWorld,
} from '../../integration/messages/messageFixtures.js';

/**
 * Channels cache the permission snapshots of their Guild (DESIGN §4 step 2); the Guild tells them when
 * a snapshot changes. A guild channel runs on its Guild's node (placed by the guild, issue 14 §2); the
 * edges the requests enter through are spread over three node processes.
 */
describe('cluster: permission changes reach the channels caching them, through any node', function () {
  this.timeout(90_000);
  let nodes: ClusterNode[];
  let world: GuildWorld;

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      setUp: async () => {
        nodes = [...cluster.nodes];
        world = await guildWorld((nodes[0] as ClusterNode).api);
      },
    },
  );

  const node = (index: number): ClusterNode => {
    const live = cluster.live();
    return live[index % live.length] as ClusterNode;
  };

  it('refuses the next message through any node once an overwrite made through another denies SEND_MESSAGES', async () => {
    const channelId = await textChannel(node(0).api, world, 'overwrites');
    for (let i = 0; i < 3; i += 1) await send(node(i).api, world.member, channelId, { content: `cached ${i}` });
    await memberOverwrite(node(1).api, world, channelId, world.member.id, 0n, Bits.SEND_MESSAGES);
    for (let i = 0; i < 3; i += 1) {
      const error = await fails(node(i).api, 'POST', `/channels/${channelId}/messages`, world.member, 403, {
        content: 'denied',
      });
      assert.equal(error.code, 50_013);
    }
    await api(node(2).api, 'DELETE', `/channels/${channelId}/permissions/${world.member.id}`, {
      token: world.owner.token,
      expect: 204,
    });
    await send(node(0).api, world.member, channelId, { content: 'allowed again' });
  });

  it('still refuses after the Guild’s node stops: the channel moved with its Guild and asks it anew', async () => {
    const guildNode = await cluster.ownerOf(`guild:${world.guildId}`);
    const channelId = await textChannel(node(0).api, world, 'moving');
    const edge = cluster.live().find((candidate) => candidate !== guildNode) as ClusterNode;
    await send(edge.api, world.member, channelId, { content: 'cached before the stop' });

    await guildNode.stop();
    await cluster.waitForMembers();
    // The Guild and its channel activate anew together on another node: the channel has no snapshot
    // and asks the Guild, which then knows it as a holder and tells it of the overwrite.
    await memberOverwrite(edge.api, world, channelId, world.member.id, 0n, Bits.SEND_MESSAGES);
    const error = await fails(edge.api, 'POST', `/channels/${channelId}/messages`, world.member, 403, {
      content: 'denied',
    });
    assert.equal(error.code, 50_013);
  });
});
