import assert from 'node:assert/strict';
import type { ActorKind, CommandOf, ReplyOf } from '../../../actors/runtime/ActorKind.js';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import { Identify, type SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { ServiceUnavailableError, UnknownEntityError } from '../../../src/domain/errors.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { ALL_INTENTS, FakeContext, SECRET, token } from './FakeSessionContext.js';

const socket = (socketId: string): { nodeId: string; socketId: string } => ({ nodeId: 'edge@1', socketId });
const identify: SessionCommand = {
  command: {
    $case: 'identify',
    identify: Identify.fromPartial({
      socket: socket('s1'),
      token,
      intents: ALL_INTENTS,
      shardId: 0,
      shardCount: 0,
      propertiesJson: '{}',
      presenceJson: '',
      capabilities: 0,
      gatewayUrl: '',
      version: 10,
    }),
  },
};
const resume = (socketId: string): SessionCommand => ({
  command: { $case: 'resume', resume: { socket: socket(socketId), token, seq: '1' } },
});

/** A context whose User actor cannot be reached for the next `outages` asks (its node just died). */
class OutageContext extends FakeContext {
  outages = 0;

  override ask<K extends ActorKind>(kind: K, key: string, command: CommandOf<K>): Promise<ReplyOf<K>> {
    if (kind === 'user' && this.outages > 0) {
      this.outages -= 1;
      return Promise.reject(new ServiceUnavailableError(`user:${key} unreachable: connect ECONNREFUSED`));
    }
    return super.ask(kind, key, command);
  }
}

async function identified(): Promise<{ ctx: OutageContext; store: InMemorySessionStore; session: SessionActor }> {
  const ctx = new OutageContext();
  const store = new InMemorySessionStore(ctx.clock);
  const options = { resumeWindowMs: 60_000, resumeBufferSize: 10, tokenSecret: SECRET, gatewayUrl: 'ws://gw' };
  const session = new SessionActor(ctx, options, store);
  await session.activate();
  await session.handle(identify);
  return { ctx, store, session };
}

describe('SessionActor resume while its user cannot be reached', function () {
  this.timeout(10_000);

  it('retries the token check inside the resume and resumes once the User actor answers', async () => {
    const { ctx, session } = await identified();
    ctx.outages = 1;
    await session.handle(resume('s2'));
    assert.deepEqual(
      ctx.framesTo('s2').map((frame) => frame.t),
      ['RESUMED'],
    );
    assert.equal(ctx.stopped, false);
  });

  it('answers a lasting outage with ServiceUnavailableError (op 7), keeping the session resumable', async () => {
    const { ctx, store, session } = await identified();
    ctx.outages = 100;
    await assert.rejects(session.handle(resume('s2')), ServiceUnavailableError);
    assert.equal(ctx.stopped, false, 'the session is not ended');
    assert.notEqual(await store.load(ctx.key), undefined, 'the store still has the session');
    ctx.outages = 0;
    await session.handle(resume('s3'));
    assert.deepEqual(
      ctx.framesTo('s3').map((frame) => frame.t),
      ['RESUMED'],
    );
  });

  it('still answers a revoked token with UnknownEntityError (op 9)', async () => {
    const { ctx, session } = await identified();
    ctx.revoked = true;
    await assert.rejects(session.handle(resume('s2')), UnknownEntityError);
  });
});
