import assert from 'node:assert/strict';
import { Metadata } from '@grpc/grpc-js';
import { SpanKind } from '@opentelemetry/api';
import { envelopeOf } from '../../../cluster/transport/envelopeCodec.js';
import { GrpcClientPool } from '../../../cluster/transport/GrpcClientPool.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import type { LocalNode } from '../../../cluster/transport/LocalNode.js';
import { startTracing, type TracingHandle } from '../../../src/tracing/startTracing.js';
import { currentTrace, endSpan, runInSpan, startSpan } from '../../../src/tracing/traceScope.js';
import { OtlpReceiver, SPAN_KIND } from '../../support/otlpReceiver.js';
import { HOST, recordingLogger } from './transportHarness.js';

// Both ways a call reaches another node carry the caller's trace: a Call on the Exchange stream (its
// traceparent field) and a unary Deliver (gRPC metadata, what a peer of the previous version sends).
describe('trace context of calls between nodes', function () {
  this.timeout(20_000);
  let receiver: OtlpReceiver;
  let tracing: TracingHandle | undefined;
  let server: NodeServer;
  let transport: GrpcTransport;
  let pool: GrpcClientPool;
  let id: string;
  /** Whether the serving side ran the actor inside a trace, per actor key. */
  const tracedAt = new Map<string, boolean>();
  const node = {
    nodeId: '',
    ringVersion: 1,
    ownerOf: () => node.nodeId,
    askLocal: (_kind: string, key: string) => {
      tracedAt.set(key, currentTrace() !== undefined);
      return Promise.resolve({ reply: { $case: 'empty', empty: {} } });
    },
    tellLocal: () => undefined,
    deliverFanOut: () => undefined,
    deliverFrames: () => undefined,
  } as unknown as LocalNode;

  before(async () => {
    receiver = await OtlpReceiver.start();
    const off = { tracesEndpoint: '', serviceName: 'chorus', scheduleDelayMs: 20 };
    tracing = await startTracing({ ...off, endpoint: receiver.endpoint }, 'transport-test');
    server = await startNodeServer({ host: HOST, port: 0, log: recordingLogger() }, node);
    id = `${HOST}:${server.port}@1`;
    Object.assign(node, { nodeId: id });
    transport = new GrpcTransport({ log: recordingLogger() });
    pool = new GrpcClientPool();
  });
  after(async () => {
    transport?.close();
    pool?.close();
    await server?.close(0);
    await tracing?.stop();
    await receiver?.stop();
  });

  it("an ask on the Exchange stream is served inside a SERVER span under the caller's CLIENT span", async () => {
    const root = startSpan('caller', SpanKind.INTERNAL, undefined);
    assert.ok(root, 'tracing is on');
    await runInSpan(undefined, root, () => transport.ask(id, 'user', 'streamed', { command: undefined }, 5_000));
    endSpan(root);
    assert.equal(tracedAt.get('streamed'), true, 'the actor was asked inside the trace');
    const [client, served] = await receiver.until((spans) => {
      const call = spans.find(
        (span) => span.kind === SPAN_KIND.client && span.attributes['chorus.actor.key'] === 'streamed',
      );
      const answer = spans.find((span) => span.kind === SPAN_KIND.server && span.parentSpanId === call?.spanId);
      return call && answer ? ([call, answer] as const) : undefined;
    });
    assert.equal(client.parentSpanId, root.spanContext().spanId);
    assert.equal(client.name, 'chorus.v1.NodeService/Deliver');
    assert.equal(served.traceId, root.spanContext().traceId);
    assert.equal(served.attributes['chorus.actor.key'], 'streamed');
  });

  it('a unary Deliver is served inside a SERVER span whose parent is the traceparent of its metadata', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const parent = 'b7ad6b7169203331';
    const metadata = new Metadata();
    metadata.set('traceparent', `00-${traceId}-${parent}-01`);
    const envelope = envelopeOf('user', 'unary', { command: undefined }, 1, Date.now() + 5_000);
    await new Promise<void>((resolve, reject) => {
      pool.get(id).deliver(envelope, metadata, (error) => {
        if (error) reject(error);
        else resolve();
      });
    });
    assert.equal(tracedAt.get('unary'), true);
    const served = await receiver.until((spans) =>
      spans.find((span) => span.kind === SPAN_KIND.server && span.traceId === traceId),
    );
    assert.equal(served.parentSpanId, parent);
    assert.equal(served.attributes['chorus.actor.key'], 'unary');
  });

  it('a call made outside any trace carries none and is served without a span', async () => {
    await transport.ask(id, 'user', 'untraced', { command: undefined }, 5_000);
    assert.equal(tracedAt.get('untraced'), false);
  });
});
