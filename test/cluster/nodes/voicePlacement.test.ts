import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { voiceAcrossNodes, type OpenedClients, type VoiceNode } from '../../integration/voice/voiceAcrossNodes.js';

/** The endpoint a node's voice service announced when it started (`host:port`). */
function voiceEndpointOf(node: ClusterNode): string {
  const started = node.events('voice_started')[0];
  assert.ok(started, `${node.name} runs a voice service`);
  return String(started['endpoint']);
}

describe('cluster: a voice channel lives on the node the ring places it on', function () {
  this.timeout(60_000);
  const opened: OpenedClients = { gateways: [], voices: [] };
  const cluster = clusterPerSuite(
    { nodes: 2 },
    {
      tearDown: async () => {
        await Promise.all(opened.voices.map((voice) => voice.close().catch(() => undefined)));
        await Promise.all(opened.gateways.map((gateway) => gateway.drop()));
      },
    },
  );

  it("sends members whose sessions are on different node processes to the ring owner's voice service", async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const reach = (node: ClusterNode): VoiceNode => ({ name: node.name, api: node.api, gatewayUrl: node.gatewayUrl });
    await voiceAcrossNodes(
      reach(a),
      reach(b),
      async (key) => {
        const host = await cluster.ownerOf(key);
        return { name: host.name, voiceEndpoint: voiceEndpointOf(host) };
      },
      opened,
    );
  });
});
