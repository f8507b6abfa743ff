import assert from 'node:assert/strict';
import { Metadata } from '@grpc/grpc-js';
import { envelopeOf } from '../../../cluster/transport/envelopeCodec.js';
import { fromServiceError } from '../../../cluster/transport/errorCodec.js';
import { GrpcClientPool } from '../../../cluster/transport/GrpcClientPool.js';
import { startNodeServer, type NodeServer } from '../../../cluster/transport/GrpcServer.js';
import type { LocalNode } from '../../../cluster/transport/LocalNode.js';
import type { Envelope, Reply } from '../../../proto/gen/chorus/v1/node.js';
import { WrongOwnerError } from '../../../src/domain/errors.js';
import { HOST, recordingLogger } from './transportHarness.js';

// A node of the previous version still calls Deliver and Tell one by one; they must keep working.
describe('NodeService unary Deliver and Tell', () => {
  let server: NodeServer;
  let pool: GrpcClientPool;
  let id: string;
  const told: string[] = [];
  const node = {
    nodeId: '',
    ringVersion: 1,
    owner: '',
    ownerOf: () => node.owner,
    askLocal: () => Promise.resolve({ reply: { $case: 'empty', empty: {} } }),
    tellLocal: (_kind: string, key: string) => {
      if (node.owner !== node.nodeId) throw new WrongOwnerError(`${key} is not mine`);
      told.push(key);
    },
    deliverFanOut: () => undefined,
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

  it('answers both with WrongOwnerError when this node does not own the actor', async () => {
    node.owner = 'someone-else';
    await assert.rejects(deliver('1'), WrongOwnerError);
    await assert.rejects(tell('2'), WrongOwnerError);
    node.owner = id;
  });
});
