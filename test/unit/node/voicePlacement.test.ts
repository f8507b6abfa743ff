import assert from 'node:assert/strict';
import type { ActorKind } from '../../../actors/runtime/ActorKind.js';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { voiceEndpointResolver } from '../../../src/node/voicePlacement.js';

const MEMBERS = ['10.0.0.1:7000@1', '10.0.0.2:7000@1', '10.0.0.3:7000@1'];
const ENDPOINTS = new Map([
  ['10.0.0.1:7000@1', 'voice-a.example.test:4001'],
  ['10.0.0.2:7000@1', 'voice-b.example.test:4001'],
  ['10.0.0.3:7000@1', 'voice-c.example.test:4001'],
]);

/** A node's view of placement: the ring every node computes from the same membership. */
function nodeView(nodeId: string, ring: HashRing) {
  return { nodeId, ownerOf: (kind: ActorKind, key: string) => ring.ownerOf(`${kind}:${key}`) };
}

describe('voiceEndpointResolver', () => {
  const ring = new HashRing({ version: 3, members: MEMBERS });
  const channels = Array.from({ length: 60 }, (_, index) => String(100_000_000_000_000_000n + BigInt(index)));

  it('names, from every node, the voice service of the node the ring places the channel on', () => {
    const resolvers = MEMBERS.map((nodeId) =>
      voiceEndpointResolver(nodeView(nodeId, ring), ENDPOINTS.get(nodeId) ?? '', (id) => ENDPOINTS.get(id)),
    );
    const used = new Set<string>();
    for (const channelId of channels) {
      const expected = ENDPOINTS.get(ring.ownerOf(`voice:${channelId}`));
      for (const resolve of resolvers) assert.equal(resolve(channelId), expected, `channel ${channelId}`);
      used.add(expected ?? '');
    }
    assert.equal(used.size, 3, 'voice channels spread over every node');
  });

  it('places a voice channel by its voice room actor, independently of the channel actor', () => {
    const differs = channels.some((id) => ring.ownerOf(`voice:${id}`) !== ring.ownerOf(`channel:${id}`));
    assert.ok(differs, 'a voice channel and its channel actor are placed independently');
  });

  it('falls back to its own voice service when the owner published no endpoint, and serves alone in embedded mode', () => {
    const self = MEMBERS[0] as string;
    const resolve = voiceEndpointResolver(nodeView(self, ring), 'own:4001', () => undefined);
    for (const channelId of channels) assert.equal(resolve(channelId), 'own:4001');
    const alone = new HashRing({ version: 1, members: ['127.0.0.1:3001@5'] });
    const embedded = voiceEndpointResolver(nodeView('127.0.0.1:3001@5', alone), '127.0.0.1:3002');
    assert.equal(embedded('42'), '127.0.0.1:3002');
  });
});
