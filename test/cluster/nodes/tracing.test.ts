import assert from 'node:assert/strict';
import { after, describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { OtlpReceiver, SPAN_KIND, type ReceivedSpan } from '../../support/otlpReceiver.js';
import { registerUser } from '../../support/testServer.js';
import { createGuild, postMessage } from '../../integration/gateway/gatewayFixtures.js';

const MESSAGES_ROUTE = /^POST \/api\/channels\/:[a-z_]+\/messages$/;

/** One request whose Channel turn ran on another node: the spans on each side of the gRPC hop. */
interface CrossNodeTrace {
  readonly edge: ReceivedSpan;
  readonly client: ReceivedSpan;
  readonly server: ReceivedSpan;
  readonly turn: ReceivedSpan;
}

function crossNodeTrace(spans: readonly ReceivedSpan[]): CrossNodeTrace | undefined {
  for (const turn of spans) {
    if (turn.name !== 'channel createMessage') continue;
    const server = spans.find((span) => span.spanId === turn.parentSpanId && span.kind === SPAN_KIND.server);
    const client = spans.find((span) => span.spanId === server?.parentSpanId && span.kind === SPAN_KIND.client);
    const edge = spans.find((span) => span.spanId === client?.parentSpanId && MESSAGES_ROUTE.test(span.name));
    if (edge && client && server) return { edge, client, server, turn };
  }
  return undefined;
}

describe('cluster: one trace across the gRPC hop', function () {
  this.timeout(60_000);
  let receiver: OtlpReceiver;

  // The nodes export to the receiver, so it starts first (in the cluster's hook) and stops after them.
  const cluster = clusterPerSuite(async () => {
    receiver = await OtlpReceiver.start();
    return { nodes: 2, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '20' } };
  });
  after(async () => {
    await receiver?.stop();
  });

  it("links a message posted on one node to the Channel turn on its owner's node through the remote call", async () => {
    const [a, b] = cluster.nodes as [ClusterNode, ClusterNode];
    const user = await registerUser(a.api, 'tracer');
    // A guild's channels run on the owner of its guild key: post each on the other node.
    for (const n of [1, 2, 3]) {
      const guild = await createGuild(a.api, user.token, `traced ${n}`);
      const owner = await cluster.ownerOf(`guild:${guild.id}`);
      const edge = owner === a ? b : a;
      await postMessage(edge.api, user.token, guild.channelId, `across ${n}`);
    }

    const { edge, client, server, turn } = await receiver.until(crossNodeTrace);
    assert.notEqual(edge.instance, turn.instance, 'the request and the turn ran on different nodes');
    assert.ok([a.nodeId, b.nodeId].includes(edge.instance) && [a.nodeId, b.nodeId].includes(turn.instance));
    // Each side of the hop is exported by its own process, under one trace id.
    assert.equal(client.instance, edge.instance);
    assert.equal(server.instance, turn.instance);
    for (const span of [client, server, turn]) assert.equal(span.traceId, edge.traceId);
    assert.equal(client.name, 'chorus.v1.NodeService/Deliver');
    assert.equal(client.attributes['chorus.actor.kind'], 'channel');
    assert.equal(client.attributes['chorus.peer.node'], turn.instance);
    assert.equal(server.attributes['chorus.actor.kind'], 'channel');
  });
});
