import assert from 'node:assert/strict';
import { once } from 'node:events';
import { ActorSystem } from '../../../cluster/ActorSystem.js';
import { HashRing } from '../../../cluster/ring/HashRing.js';
import { startNodeServer } from '../../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import type { LocalNode } from '../../../cluster/transport/LocalNode.js';
import { GetChannel, type ChannelCommand, type ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import {
  InternalError,
  ServiceUnavailableError,
  UnknownEntityError,
  ValidationError,
} from '../../../src/domain/errors.js';
import {
  HOST,
  keyOwnedBy,
  recordingLogger,
  startCluster,
  stopCluster,
  until,
  type EdgeBatch,
  type Received,
  type TestNode,
} from './transportHarness.js';

function echo(body: string): ChannelCommand {
  return { command: { $case: 'getChannel', getChannel: GetChannel.fromPartial({ body }) } };
}

function parsed(reply: ChannelReply): { node: string; key: string; body: string } {
  assert.equal(reply.reply?.$case, 'json');
  return JSON.parse(reply.reply.json.json) as { node: string; key: string; body: string };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

describe('GrpcTransport', () => {
  let nodes: TestNode[];
  let ring: HashRing;
  let a: TestNode;
  let b: TestNode;
  let c: TestNode;

  before(async () => {
    ({ nodes, ring } = await startCluster(3));
    [a, b, c] = nodes as [TestNode, TestNode, TestNode];
  });

  after(async () => {
    await stopCluster(nodes);
  });

  describe('ask', () => {
    it('reaches the actor on the owning node and brings its typed reply back', async () => {
      const key = keyOwnedBy(ring, 'channel', c.id);
      const reply = await a.system.ask('channel', key, echo('hello'));
      assert.deepEqual(parsed(reply), { node: c.id, key, body: 'hello' });
      assert.equal(c.host.isActive('channel', key), true);
      assert.equal(a.host.isActive('channel', key), false);
    });

    it('rebuilds the AppError a remote actor throws as the same class with its fields', async () => {
      const key = keyOwnedBy(ring, 'channel', b.id);
      await assert.rejects(a.system.ask('channel', key, echo('invalid')), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.fieldErrors, {
          content: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
        });
        return true;
      });
      await assert.rejects(a.system.ask('channel', key, echo('unknown')), (error: unknown) => {
        assert.ok(error instanceof UnknownEntityError);
        assert.equal(error.entity, 'message');
        assert.equal(error.discordCode, 10_008);
        return true;
      });
      await assert.rejects(a.system.ask('channel', key, echo('bug')), InternalError);
    });

    it('answers ServiceUnavailableError when the deadline passes', async () => {
      const key = keyOwnedBy(ring, 'channel', c.id, 'slow');
      await assert.rejects(a.transport.ask(c.id, 'channel', key, echo('slow'), 100), ServiceUnavailableError);
      await assert.rejects(a.system.ask('channel', key, echo('slow'), 100), ServiceUnavailableError);
    });

    it('fails fast with ServiceUnavailableError when the peer node is stopped', async () => {
      const served: LocalNode = {
        nodeId: 'placeholder',
        ringVersion: 1,
        ownerOf: () => served.nodeId,
        askLocal: () => Promise.resolve({ reply: { $case: 'empty', empty: {} } }),
        tellLocal: () => undefined,
        deliverFanOut: () => undefined,
        deliverFrames: () => undefined,
      };
      const server = await startNodeServer({ host: HOST, port: 0, log: recordingLogger() }, served);
      const id = `${HOST}:${server.port}@1`;
      Object.assign(served, { nodeId: id });
      assert.equal((await a.transport.ask(id, 'user', '1', { command: undefined }, 5_000)).reply?.$case, 'empty');
      await server.close(0);
      const started = Date.now();
      await assert.rejects(a.transport.ask(id, 'user', '1', { command: undefined }, 10_000), ServiceUnavailableError);
      const elapsedMs = Date.now() - started;
      assert.ok(elapsedMs < 5_000, `a stopped peer took ${elapsedMs} ms to fail (deadline 10000 ms)`);
      a.transport.forget(id);
    });

    describe('when the caller routes by a stale view', () => {
      function staleCaller(): { system: ActorSystem; transport: GrpcTransport } {
        const log = recordingLogger();
        const transport = new GrpcTransport({ log });
        // Version 0 with only B: every key looks like B's, so a key of C reaches B first.
        const stale = new HashRing({ version: 0, members: [b.id] });
        const system = new ActorSystem(
          `${HOST}:1@stale`,
          stale,
          { askDeadlineMs: 5_000, vnodesPerNode: 128 },
          log,
          transport,
        );
        return { system, transport };
      }

      it('is answered NOT_OWNER, refreshes its view and retries once on the owner', async () => {
        const { system, transport } = staleCaller();
        let refreshes = 0;
        system.bindViewRefresh(() => {
          refreshes += 1;
          system.updateRing(ring);
          return Promise.resolve();
        });
        const key = keyOwnedBy(ring, 'channel', c.id, 'moved');
        const reply = await system.ask('channel', key, echo('after the move'));
        assert.equal(parsed(reply).node, c.id);
        assert.equal(refreshes, 1);
        assert.equal(b.host.isActive('channel', key), false);
        transport.close();
      });

      it('gives up with ServiceUnavailableError when the retry reaches a non-owner again', async () => {
        const { system, transport } = staleCaller();
        let refreshes = 0;
        system.bindViewRefresh(() => {
          refreshes += 1;
          return Promise.resolve();
        });
        const key = keyOwnedBy(ring, 'channel', c.id, 'stuck');
        await assert.rejects(system.ask('channel', key, echo('x')), ServiceUnavailableError);
        assert.equal(refreshes, 1);
        transport.close();
      });
    });
  });

  describe('tell', () => {
    it('delivers a one-way message to the actor on the owning node', async () => {
      const session = keyOwnedBy(ring, 'session', c.id, 'told');
      await a.system.ask('session', session, { command: { $case: 'heartbeat', heartbeat: { seq: '0' } } });
      const event: DispatchEvent = { event: 'TYPING_START', dataJson: '{}', intent: 0 };
      a.system.tell('session', session, { command: { $case: 'dispatch', dispatch: event } });
      await until(
        c.events,
        'dispatch',
        () => c.dispatched.some((r) => r.session === session),
        `a tell to ${session} on C`,
      );
    });

    it('logs a tell that reached a node which does not own the actor', async () => {
      const session = keyOwnedBy(ring, 'session', c.id, 'misrouted');
      const failed = once(a.log.events, 'remote_tell_failed');
      a.transport.tell(b.id, 'session', session, { command: { $case: 'heartbeat', heartbeat: { seq: '0' } } });
      const [fields] = (await failed) as [{ kind: string; node: string }];
      assert.equal(fields.kind, 'moved');
      assert.equal(fields.node, b.id);
    });
  });

  describe('fanOut', () => {
    it('reaches every session on every node exactly once, with one call per remote node', async () => {
      const sessions = nodes.flatMap((node) =>
        [0, 1, 2].map((skip) => keyOwnedBy(ring, 'session', node.id, 's', skip)),
      );
      const heartbeat = { command: { $case: 'heartbeat' as const, heartbeat: { seq: '0' } } };
      await Promise.all(sessions.map((id) => a.system.ask('session', id, heartbeat)));
      const before = a.counted.calls.fanOut;
      const event: DispatchEvent = { event: 'MESSAGE_CREATE', dataJson: '{"id":"1","content":"hi"}', intent: 1 << 9 };
      a.system.fanOut(sessions, event);
      const seen = (node: TestNode): Received[] => node.dispatched.filter((r) => r.event.event === event.event);
      await Promise.all(
        nodes.map((node) =>
          until(node.events, 'dispatch', () => seen(node).length >= 3, `3 MESSAGE_CREATE dispatches on ${node.id}`),
        ),
      );
      assert.equal(a.counted.calls.fanOut - before, 2);
      // A round trip to every node after the batches: a duplicate would have landed by now.
      await Promise.all(
        nodes.map((node) => a.system.ask('channel', keyOwnedBy(ring, 'channel', node.id), echo('barrier'))),
      );
      for (const node of nodes) {
        for (const received of seen(node)) {
          assert.equal(ring.ownerOf(`session:${received.session}`), node.id);
          assert.deepEqual(received.event, event);
        }
      }
      assert.deepEqual(nodes.flatMap((node) => seen(node).map((r) => r.session)).sort(), [...sessions].sort());
    });
  });

  describe('pushFrames', () => {
    it('keeps the order of frames pushed to each edge node, within and across batches', async () => {
      const count = 500;
      for (let index = 0; index < count; index += 1) {
        // Pushes of one event-loop turn travel as one batch; yielding now and then makes several.
        if (index % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
        a.system.pushFrames(c.id, 'socket-c', [`c${index}`, `c${index}b`], 0);
        a.system.pushFrames(b.id, 'socket-b', [`b${index}`], 0);
      }
      a.system.pushFrames(c.id, 'socket-c', ['bye'], 4_000);
      await until(c.events, 'frames', () => c.frames.some((f) => f.closeCode === 4_000), 'the closing batch on C');
      await until(b.events, 'frames', () => b.frames.length >= count, `${count} batches on B`);
      const expectedC = Array.from({ length: count }, (_, index) => [`c${index}`, `c${index}b`]).flat();
      assert.deepEqual(
        c.frames.flatMap((f) => f.frames),
        [...expectedC, 'bye'],
      );
      assert.deepEqual(
        b.frames.flatMap((f) => f.frames),
        Array.from({ length: count }, (_, index) => `b${index}`),
      );
      assert.ok(c.frames.every((f) => f.socketId === 'socket-c'));
    });

    it('reopens the stream after the edge node restarts', async () => {
      const received: EdgeBatch[] = [];
      const edge: LocalNode = {
        nodeId: 'edge',
        ringVersion: 1,
        ownerOf: () => 'edge',
        askLocal: () => Promise.reject(new Error('not used')),
        tellLocal: () => undefined,
        deliverFanOut: () => undefined,
        deliverFrames: (socketId, frames, closeCode) => {
          received.push({ socketId, frames: [...frames], closeCode });
          edgeEvents.emit('frames');
        },
      };
      const edgeEvents = recordingLogger().events;
      const first = await startNodeServer({ host: HOST, port: 0, log: recordingLogger() }, edge);
      const id = `${HOST}:${first.port}@1`;
      a.transport.pushFrames(id, 's', ['before'], 0);
      await until(edgeEvents, 'frames', () => received.length === 1, 'the frame sent before the restart');
      const broken = once(a.log.events, 'edge_stream_failed');
      await first.close(0);
      const second = await startNodeServer({ host: HOST, port: first.port, log: recordingLogger() }, edge);
      await broken;
      a.transport.pushFrames(id, 's', ['after'], 0);
      await until(edgeEvents, 'frames', () => received.length === 2, 'the frame sent after the restart');
      assert.deepEqual(
        received.map((r) => r.frames[0]),
        ['before', 'after'],
      );
      a.transport.forget(id);
      await second.close(0);
    });
  });

  describe('latency', () => {
    it('reports p50/p99 of sequential remote and local asks', async function () {
      this.timeout(180_000); // 4,400 sequential calls; on a loaded machine they take a while
      const key = keyOwnedBy(ring, 'channel', c.id, 'latency');
      const measure = async (from: TestNode): Promise<number[]> => {
        for (let index = 0; index < 200; index += 1) await from.system.ask('channel', key, echo('warm'));
        const samples: number[] = [];
        for (let index = 0; index < 2_000; index += 1) {
          const started = process.hrtime.bigint();
          await from.system.ask('channel', key, echo('x'));
          samples.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        return samples.sort((x, y) => x - y);
      };
      const remote = await measure(a);
      const local = await measure(c);
      const show = (name: string, s: number[]): string =>
        `${name}: p50 ${percentile(s, 50).toFixed(3)} ms, p99 ${percentile(s, 99).toFixed(3)} ms`;
      console.log(`      2000 sequential asks: ${show('remote (A→C over gRPC)', remote)}; ${show('local (C)', local)}`);
      assert.equal(remote.length, 2_000);
    });
  });
});
