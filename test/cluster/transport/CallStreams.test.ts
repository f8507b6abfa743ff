import assert from 'node:assert/strict';
import { Server, ServerCredentials, type ServerDuplexStream } from '@grpc/grpc-js';
import { ServiceUnavailableError, WrongOwnerError } from '../../../src/domain/errors.js';
import { NodeServiceService, type CallBatch, type ResultBatch } from '../../../proto/gen/chorus/v1/node.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { serveExchange } from '../../../cluster/transport/ExchangeServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import type { LocalNode } from '../../../cluster/transport/LocalNode.js';
import { HOST, recordingLogger } from './transportHarness.js';

const EMPTY_REPLY: UserReply = { reply: { $case: 'empty', empty: {} } };
const COMMAND: UserCommand = { command: undefined };
const EVENT: DispatchEvent = { event: 'MESSAGE_CREATE', dataJson: '{"id":"1"}', intent: 0 };

/** One fan-out batch a stub node was handed. */
interface FannedOut {
  readonly sessionIds: readonly string[];
  readonly event: DispatchEvent;
  readonly source: string | undefined;
}

/** A node serving only Exchange, counting the CallBatches it receives; its actors are the stub's. */
interface StubPeer {
  readonly id: string;
  readonly batches: number[];
  readonly node: LocalNode & {
    owner: string;
    answer: () => Promise<unknown>;
    /** Keys told and `fanOut` markers, in the order the node took them. */
    told: string[];
    fannedOut: FannedOut[];
  };
  readonly server: Server;
}

async function startPeer(port = 0): Promise<StubPeer> {
  const batches: number[] = [];
  const node = {
    nodeId: '',
    owner: '',
    ringVersion: 1,
    told: [] as string[],
    fannedOut: [] as FannedOut[],
    answer: (): Promise<unknown> => Promise.resolve(EMPTY_REPLY),
    ownerOf: () => node.owner,
    askLocal: (_kind: string, key: string) =>
      node.owner === node.nodeId ? node.answer() : Promise.reject(new WrongOwnerError(`${key} is not mine`)),
    tellLocal: (_kind: string, key: string) => {
      if (node.owner !== node.nodeId) throw new WrongOwnerError(`${key} is not mine`);
      node.told.push(key);
    },
    deliverFanOut: (sessionIds: readonly string[], event: DispatchEvent, source?: string) => {
      node.told.push('fanOut');
      node.fannedOut.push({ sessionIds: [...sessionIds], event, source });
    },
    deliverFrames: () => undefined,
  } as StubPeer['node'];
  const server = new Server();
  server.addService(NodeServiceService, {
    exchange: (call: ServerDuplexStream<CallBatch, ResultBatch>) => {
      call.on('data', (batch: CallBatch) => batches.push(batch.calls.length));
      serveExchange(call, () => node, recordingLogger());
    },
  });
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${HOST}:${port}`, ServerCredentials.createInsecure(), (error, value) => {
      if (error) reject(error);
      else resolve(value);
    });
  });
  const id = `${HOST}:${bound}@1`;
  Object.assign(node, { nodeId: id, owner: id });
  return { id, batches, node, server };
}

describe('GrpcTransport calls over the Exchange stream', () => {
  let peer: StubPeer;
  let transport: GrpcTransport;

  beforeEach(async () => {
    peer = await startPeer();
    transport = new GrpcTransport({ log: recordingLogger() });
  });

  afterEach(() => {
    transport.close();
    peer.server.forceShutdown();
  });

  const ask = (deadlineMs = 5_000): Promise<UserReply> => transport.ask(peer.id, 'user', '1', COMMAND, deadlineMs);

  it('sends the asks issued in one event-loop turn as one batch and answers each', async () => {
    await ask(); // opens the stream
    peer.batches.length = 0;
    const replies = await Promise.all(Array.from({ length: 50 }, () => ask()));
    assert.deepEqual(
      replies,
      Array.from({ length: 50 }, () => EMPTY_REPLY),
    );
    assert.deepEqual(peer.batches, [50]);
  });

  it('acknowledges a tell once the actor on the node took it', async () => {
    const done = await new Promise<unknown>((resolve) => {
      transport.tell(peer.id, 'user', 'told', COMMAND, resolve);
    });
    assert.equal(done, undefined);
    assert.deepEqual(peer.node.told, ['told']);
  });

  it('sends a fan-out batch in the same batch as the asks of its turn and acknowledges it once delivered', async () => {
    await ask(); // opens the stream
    peer.batches.length = 0;
    const fannedOut = new Promise<unknown>((resolve) => {
      transport.fanOut(peer.id, ['s1', 's2'], EVENT, 'guild:9', resolve);
    });
    const [first, done, second] = await Promise.all([ask(), fannedOut, ask()]);
    assert.deepEqual([first, done, second], [EMPTY_REPLY, undefined, EMPTY_REPLY]);
    assert.deepEqual(peer.batches, [3]);
    assert.deepEqual(peer.node.fannedOut, [{ sessionIds: ['s1', 's2'], event: EVENT, source: 'guild:9' }]);
  });

  it('delivers tells and fan-outs to one node in the order they were issued', async () => {
    const acks = ['a', 'fanOut', 'b'].map(
      (what) =>
        new Promise<unknown>((resolve) => {
          if (what === 'fanOut') transport.fanOut(peer.id, ['s1'], EVENT, '', resolve);
          else transport.tell(peer.id, 'user', what, COMMAND, resolve);
        }),
    );
    assert.deepEqual(await Promise.all(acks), [undefined, undefined, undefined]);
    assert.deepEqual(peer.node.told, ['a', 'fanOut', 'b']);
  });

  it('rebuilds WrongOwnerError from a node that does not own the actor, for asks and tells', async () => {
    peer.node.owner = 'someone-else';
    await assert.rejects(ask(), WrongOwnerError);
    const done = await new Promise<unknown>((resolve) => {
      transport.tell(peer.id, 'user', 'told', COMMAND, resolve);
    });
    assert.ok(done instanceof WrongOwnerError);
  });

  it('rejects with ServiceUnavailableError when the deadline passes, and ignores the late answer', async () => {
    let release = (): void => undefined;
    peer.node.answer = () =>
      new Promise((resolve) => {
        release = () => {
          resolve(EMPTY_REPLY);
        };
      });
    await assert.rejects(ask(100), (error: unknown) => {
      assert.ok(error instanceof ServiceUnavailableError);
      assert.match(error.message, /Deadline exceeded/);
      return true;
    });
    release();
    peer.node.answer = () => Promise.resolve(EMPTY_REPLY);
    assert.deepEqual(await ask(), EMPTY_REPLY);
  });

  it('rejects every pending ask when the stream fails, and the next call opens a new stream', async () => {
    let reached = 0;
    const allReached = new Promise<void>((resolve) => {
      peer.node.answer = () => {
        if ((reached += 1) === 3) resolve();
        return new Promise(() => undefined);
      };
    });
    const pending = Array.from({ length: 3 }, () => ask(10_000));
    await allReached;
    const started = Date.now();
    peer.server.forceShutdown();
    for (const call of pending) await assert.rejects(call, ServiceUnavailableError);
    assert.ok(Date.now() - started < 5_000, 'pending asks waited for their deadline');
    const port = Number(peer.id.split(':')[1]?.split('@')[0]);
    peer = await startPeer(port);
    assert.deepEqual(await ask(), EMPTY_REPLY);
  });
});
