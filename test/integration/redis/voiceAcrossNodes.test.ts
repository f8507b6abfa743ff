import { after, before, describe, it } from 'mocha';
import type { RunningNode } from '../../../src/node/RunningNode.js';
import { InProcessCluster } from '../../support/inProcessCluster.js';
import { voiceAcrossNodes, type OpenedClients } from '../voice/voiceAcrossNodes.js';

describe('voice across cluster nodes in one process (Redis membership, gRPC; SQLite for the records)', function () {
  this.timeout(60_000);
  let cluster: InProcessCluster;
  const opened: OpenedClients = { gateways: [], voices: [] };

  before(async function () {
    this.timeout(60_000);
    cluster = await InProcessCluster.start(2);
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
        const ownerId = a.system.placeOf(key);
        const host = nodes.find((node) => node.nodeId === ownerId);
        if (!host?.voice) throw new Error(`${key} is placed on ${ownerId}, which runs no voice service here`);
        return Promise.resolve({ name: named(host), voiceEndpoint: host.voice.endpoint });
      },
      opened,
    );
  });
});
