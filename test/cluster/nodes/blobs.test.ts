import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';
import { pngBytes } from '../../integration/spec/specKit.js';

/** The bytes and content type a node serves at `path` (a CDN path at the node's root). */
async function fetchBlob(node: ClusterNode, path: string): Promise<{ status: number; type: string; bytes: Buffer }> {
  const response = await fetch(new URL(path, node.url));
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/**
 * Blobs live in Cassandra in cluster mode, so any node serves what another node stored: an attachment
 * uploaded through one node and an avatar set through another are fetched through a third; once the
 * message is deleted or the avatar replaced through yet another node, none of them serves it.
 */
describe('cluster: attachments and CDN images stored through one node are served by every node', function () {
  this.timeout(60_000);
  let nodes: [ClusterNode, ClusterNode, ClusterNode];
  let owner: TestUser;
  let guild: TestGuild;

  const cluster = clusterPerSuite(
    { nodes: 3 },
    {
      hookTimeoutMs: 150_000,
      setUp: async () => {
        nodes = cluster.nodes as [ClusterNode, ClusterNode, ClusterNode];
        owner = await registerUser(nodes[0].api, 'uploader');
        guild = await createGuild(nodes[0].api, owner.token, 'files');
      },
    },
  );

  it('serves an attachment uploaded through node A from nodes B and C, and none once deleted through C', async () => {
    const text = Buffer.from('the same bytes on every node\n');
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ content: 'a file', attachments: [{ id: '0', filename: 'a.txt' }] }));
    form.append('files[0]', new Blob([text], { type: 'text/plain' }), 'a.txt');
    const response = await fetch(`${nodes[0].api}/channels/${guild.channelId}/messages`, {
      method: 'POST',
      headers: { authorization: owner.token },
      body: form,
    });
    assert.equal(response.status, 200, await response.clone().text());
    const message = (await response.json()) as { id: string; attachments: { url: string; size: number }[] };
    const [attachment] = message.attachments;
    assert.ok(attachment, 'the message carries its attachment');
    assert.equal(attachment.size, text.length);
    const path = new URL(attachment.url).pathname;
    for (const node of [nodes[1], nodes[2]]) {
      const served = await fetchBlob(node, path);
      assert.equal(served.status, 200, `${node.name} serves ${path}`);
      assert.match(served.type, /^text\/plain/);
      assert.deepEqual(served.bytes, text);
    }
    // Deleted through node C, the message's file is gone for every node (the blob, not a node's cache).
    await api(nodes[2].api, 'DELETE', `/channels/${guild.channelId}/messages/${message.id}`, {
      token: owner.token,
      expect: 204,
    });
    for (const node of nodes) assert.equal((await fetchBlob(node, path)).status, 404, `${node.name} after delete`);
  });

  it('serves an avatar set through node B from nodes A and C, and none once replaced through C', async () => {
    const png = pngBytes(8, 8);
    const me = await api<{ id: string; avatar: string }>(nodes[1].api, 'PATCH', '/users/@me', {
      token: owner.token,
      body: { avatar: `data:image/png;base64,${png.toString('base64')}` },
    });
    for (const node of [nodes[0], nodes[2]]) {
      const served = await fetchBlob(node, `/avatars/${me.id}/${me.avatar}.png?size=64`);
      assert.equal(served.status, 200, `${node.name} serves the avatar`);
      assert.equal(served.type, 'image/png');
      assert.deepEqual(served.bytes, png);
    }
    // Replaced through node C, the old avatar is gone for every node.
    await api(nodes[2].api, 'PATCH', '/users/@me', {
      token: owner.token,
      body: { avatar: `data:image/png;base64,${pngBytes(9, 8).toString('base64')}` },
    });
    for (const node of nodes) {
      const old = await fetchBlob(node, `/avatars/${me.id}/${me.avatar}.png`);
      assert.equal(old.status, 404, `${node.name} after the avatar is replaced`);
    }
  });
});
