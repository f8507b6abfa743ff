import assert from 'node:assert/strict';
import { Metadata, Server, ServerCredentials } from '@grpc/grpc-js';
import { envelopeOf } from '../../../cluster/transport/envelopeCodec.js';
import { fromServiceError } from '../../../cluster/transport/errorCodec.js';
import { GrpcClientPool } from '../../../cluster/transport/GrpcClientPool.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import { GrpcTransport } from '../../../cluster/transport/GrpcTransport.js';
import type { LocalNode } from '../../../cluster/transport/LocalNode.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import { NodeServiceService, type Envelope, type Reply, type SessionBatch } from '../../../proto/gen/chorus/v1/node.js';
import { WrongOwnerError } from '../../../src/domain/errors.js';
import { HOST, recordingLogger } from './transportHarness.js';

// A node of the previous version still calls Deliver, Tell and FanOut one by one; they must keep working.
describe('NodeService unary Deliver, Tell and FanOut', () => {
  let server: NodeServer;
  let pool: GrpcClientPool;
  let id: string;
  const told: string[] = [];
  const event: DispatchEvent = { event: 'MESSAGE_CREATE', dataJson: '{}', intent: 0 };
  const node = {
    nodeId: '',
    ringVersion: 1,
    owner: '',
    ownerOf: () => node.owner,
    askLocal: (_kind: string, key: string) =>
      node.owner === node.nodeId
        ? Promise.resolve({ reply: { $case: 'empty', empty: {} } })
        : Promise.reject(new WrongOwnerError(`${key} is not mine`)),
    tellLocal: (_kind: string, key: string) => {
      if (node.owner !== node.nodeId) throw new WrongOwnerError(`${key} is not mine`);
      told.push(key);
    },
    deliverFanOut: (sessionIds: readonly string[], _event: DispatchEvent, source: string) => {
      told.push(`fanOut ${sessionIds.join(',')} from ${source}`);
    },
    deliverFrames: () => undefined,
  } as unknown as LocalNode & { owner: string };

  before(async () => {
    server = await startNodeServer({ host: HOST, port: 0, log: recordingLogger() }, node);
    id = `${HOST}:${server.port}@1`;
    Object.assign(node, { nodeId: id, owner: id });
    pool = new GrpcClientPool();
  });

  after(async () => {
    pool.close();
    await server.close(0);
  });

  const envelope = (key: string): Envelope => envelopeOf('user', key, { command: undefined }, 1, Date.now() + 5_000);
  const deliver = (key: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      pool.get(id).deliver(envelope(key), new Metadata(), (error, reply) => {
        if (error) reject(fromServiceError(error, id));
        else resolve(reply);
      });
    });
  const tell = (key: string): Promise<void> =>
    new Promise((resolve, reject) => {
      pool.get(id).tell(envelope(key), new Metadata(), (error) => {
        if (error) reject(fromServiceError(error, id));
        else resolve();
      });
    });

  it('answers a Deliver with the actor reply and a Tell once the actor took it', async () => {
    assert.equal((await deliver('1')).body?.$case, 'user');
    await tell('told');
    assert.deepEqual(told, ['told']);
  });

  it('answers a FanOut once the batch reached the sessions', async () => {
    told.length = 0;
    await new Promise<void>((resolve, reject) => {
      pool.get(id).fanOut({ event, sessionIds: ['s1', 's2'], source: 'guild:1' }, new Metadata(), (error) => {
        if (error) reject(fromServiceError(error, id));
        else resolve();
      });
    });
    assert.deepEqual(told, ['fanOut s1,s2 from guild:1']);
  });

  it('answers both with WrongOwnerError when this node does not own the actor', async () => {
    node.owner = 'someone-else';
    await assert.rejects(deliver('1'), WrongOwnerError);
    await assert.rejects(tell('2'), WrongOwnerError);
    node.owner = id;
  });

  it('is what a GrpcTransport falls back to for a node without Exchange, for pending and later calls', async () => {
    const old = new Server();
    const seen: string[] = [];
    old.addService(NodeServiceService, {
      deliver: (call: { request: Envelope }, callback: (error: null, reply: Reply) => void) => {
        seen.push(`deliver ${call.request.actorId}`);
        callback(null, { body: { $case: 'user', user: { reply: { $case: 'empty', empty: {} } } } });
      },
      tell: (call: { request: Envelope }, callback: (error: null, reply: object) => void) => {
        seen.push(`tell ${call.request.actorId}`);
        callback(null, {});
      },
      fanOut: (call: { request: SessionBatch }, callback: (error: null, reply: object) => void) => {
        seen.push(`fanOut ${call.request.sessionIds.join(',')} ${call.request.event?.event}`);
        callback(null, {});
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      old.bindAsync(`${HOST}:0`, ServerCredentials.createInsecure(), (error, bound) => {
        if (error) reject(error);
        else resolve(bound);
      });
    });
    const oldId = `${HOST}:${port}@1`;
    const transport = new GrpcTransport({ log: recordingLogger() });
    const ask = (key: string): Promise<unknown> => transport.ask(oldId, 'user', key, { command: undefined }, 5_000);
    const told = new Promise((resolve) => {
      transport.tell(oldId, 'user', 't', { command: undefined }, resolve);
    });
    const fannedOut = new Promise((resolve) => {
      transport.fanOut(oldId, ['s1', 's2'], event, 'guild:1', resolve);
    });
    assert.deepEqual(await Promise.all([ask('a'), ask('b'), told, fannedOut]), [
      { reply: { $case: 'empty', empty: {} } },
      { reply: { $case: 'empty', empty: {} } },
      undefined,
      undefined,
    ]);
    await ask('later');
    await new Promise((resolve) => {
      transport.fanOut(oldId, ['s3'], event, '', resolve);
    });
    // Separate unary calls, as before Exchange: each arrives once, in no promised order.
    assert.deepEqual(seen.slice(0, 4).sort(), ['deliver a', 'deliver b', 'fanOut s1,s2 MESSAGE_CREATE', 'tell t']);
    assert.deepEqual(seen.slice(4), ['deliver later', 'fanOut s3 MESSAGE_CREATE']);
    transport.close();
    old.forceShutdown();
  });
});
