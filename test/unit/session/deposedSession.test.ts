import assert from 'node:assert/strict';
import type { SessionStore, StoredSession } from '../../../actors/runtime/ports/sessionStore.js';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import { Identify, type SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { ServiceUnavailableError, WrongOwnerError } from '../../../src/domain/errors.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { ALL_INTENTS, FakeContext, SECRET, token } from './FakeSessionContext.js';

const identify: SessionCommand = {
  command: {
    $case: 'identify',
    identify: Identify.fromPartial({
      socket: { nodeId: 'edge@1', socketId: 's1' },
      token,
      intents: ALL_INTENTS,
      shardId: 0,
      shardCount: 0,
      propertiesJson: '{}',
      presenceJson: '',
      version: 10,
    }),
  },
};
const dispatch: SessionCommand = {
  command: { $case: 'dispatch', dispatch: { event: 'MESSAGE_CREATE', dataJson: '{"id":"1"}', intent: 0 } },
};

/** A session store behind the commit fence: `refusal` is what the fence throws at the next frame write. */
class FencedStore implements SessionStore {
  refusal: Error | undefined;
  /** Writes go through a fence (a round trip), as in cluster mode. */
  readonly writesApplyOnCall = false;
  readonly #inner: InMemorySessionStore;

  constructor(clock: FakeContext['clock']) {
    this.#inner = new InMemorySessionStore(clock);
  }
  save(...args: Parameters<SessionStore['save']>): Promise<void> {
    return this.#inner.save(...args);
  }
  addFrames(...args: Parameters<SessionStore['addFrames']>): Promise<void> {
    return this.refusal ? Promise.reject(this.refusal) : this.#inner.addFrames(...args);
  }
  load(sessionId: string): Promise<StoredSession | undefined> {
    return this.#inner.load(sessionId);
  }
  touch(sessionId: string, ttlMs: number): Promise<void> {
    return this.#inner.touch(sessionId, ttlMs);
  }
  delete(sessionId: string): Promise<void> {
    return this.#inner.delete(sessionId);
  }
}

const options = { resumeWindowMs: 60_000, resumeBufferSize: 10, tokenSecret: SECRET, gatewayUrl: 'ws://gw' };

async function identified(): Promise<{ store: FencedStore; session: SessionActor; ctx: FakeContext }> {
  const ctx = new FakeContext();
  const store = new FencedStore(ctx.clock);
  const session = new SessionActor(ctx, options, store);
  await session.activate();
  await session.handle(identify);
  return { store, session, ctx };
}

describe('SessionActor deposed while it delivers', () => {
  it('fails a dispatch whose frame the commit fence refused, so its sender routes it to the new owner', async () => {
    const { store, session } = await identified();
    store.refusal = new WrongOwnerError('session lease 3 may have lapsed');
    await assert.rejects(session.handle(dispatch), WrongOwnerError);
  });

  it('evicts itself and fails a dispatch once a successor activation wrote the session, keeping the successor frame', async () => {
    const { store, session, ctx } = await identified();
    // The successor (this one's node was paused past its lease) takes the session over and journals.
    const successorCtx = new FakeContext();
    const successor = new SessionActor(successorCtx, options, store);
    await successor.activate();
    await successor.handle({
      command: { $case: 'dispatch', dispatch: { event: 'MESSAGE_CREATE', dataJson: '{"id":"2"}', intent: 0 } },
    });
    await assert.rejects(session.handle(dispatch), WrongOwnerError);
    assert.equal(ctx.evicted, true, 'the deposed activation goes, so what waits for it is routed again');
    const stored = await store.load(ctx.key);
    assert.ok(stored?.frames.at(-1)?.data.includes('"id":"2"'), 'the successor frame keeps its number');
    assert.ok(!stored?.frames.some(({ data }) => data.includes('"id":"1"')), 'the deposed frame is not stored');
  });

  it('keeps a dispatch the store could not take for a passing reason, for the resume to write again', async () => {
    const { store, session } = await identified();
    store.refusal = new ServiceUnavailableError('store down');
    await session.handle(dispatch);
  });
});
