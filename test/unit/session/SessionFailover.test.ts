import assert from 'node:assert/strict';
import type { FrameProgress, SessionStore, StoredSession } from '../../../actors/runtime/ports/sessionStore.js';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import type { Identify, SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { ServiceUnavailableError, UnknownEntityError } from '../../../src/domain/errors.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { FakeContext, identifyCommand, token } from './FakeSessionContext.js';

const WINDOW_MS = 60_000;
const socket = (socketId: string): { nodeId: string; socketId: string } => ({ nodeId: 'edge@1', socketId });
const identify = identifyCommand('edge@1');
const identifyOf = (command: SessionCommand): Identify => {
  if (command.command?.$case !== 'identify') throw new Error('not an identify');
  return command.command.identify;
};
const dispatch = (id: string): SessionCommand => ({
  command: { $case: 'dispatch', dispatch: { event: 'MESSAGE_CREATE', dataJson: `{"id":"${id}"}`, intent: 0 } },
});
const resume = (socketId: string, seq: number): SessionCommand => ({
  command: { $case: 'resume', resume: { socket: socket(socketId), token, seq: String(seq) } },
});
const detach = (socketId: string): SessionCommand => ({
  command: { $case: 'detach', detach: { socketId, invalidate: false } },
});

/** A store that records its writes in `log` and can be made to refuse them. */
class RecordingStore implements SessionStore {
  readonly inner: InMemorySessionStore;
  refuse = false;

  constructor(
    readonly ctx: FakeContext,
    readonly log: string[],
  ) {
    this.inner = new InMemorySessionStore(ctx.clock);
  }

  save(...args: Parameters<SessionStore['save']>): Promise<void> {
    if (this.refuse) return Promise.reject(new ServiceUnavailableError('store down'));
    this.log.push(`save seq ${args[1].seq}`);
    return this.inner.save(...args);
  }
  addFrames(
    sessionId: string,
    frames: Parameters<SessionStore['addFrames']>[1],
    progress: FrameProgress,
  ): Promise<void> {
    if (this.refuse) return Promise.reject(new ServiceUnavailableError('store down'));
    this.log.push(`write ${frames.map((frame) => frame.seq).join(',')} seq ${progress.seq}`);
    return this.inner.addFrames(sessionId, frames, progress);
  }
  load(sessionId: string): Promise<StoredSession | undefined> {
    return this.inner.load(sessionId);
  }
  touch(sessionId: string, ttlMs: number): Promise<void> {
    this.log.push('touch');
    return this.inner.touch(sessionId, ttlMs);
  }
  delete(sessionId: string): Promise<void> {
    this.log.push('delete');
    return this.inner.delete(sessionId);
  }
}

/** A context whose pushes land in the same log as the store's writes. */
class LoggingContext extends FakeContext {
  readonly events: string[] = [];

  override pushFrames(nodeId: string, socketId: string, frames: readonly string[], closeCode = 0): void {
    const seqs = frames.map((frame) => (JSON.parse(frame) as { s: number | null }).s ?? 'op');
    this.events.push(`push ${socketId} ${seqs.join(',')}${closeCode ? ` close ${closeCode}` : ''}`);
    super.pushFrames(nodeId, socketId, frames, closeCode);
  }
}

function actorOn(ctx: FakeContext, store: SessionStore): SessionActor {
  return new SessionActor(
    ctx,
    { resumeWindowMs: WINDOW_MS, resumeBufferSize: 10, tokenSecret: 'unit-secret', gatewayUrl: 'ws://gw' },
    store,
  );
}

/** A second activation of the same session on another node, sharing the store (the first node died). */
async function takeOver(
  store: SessionStore,
  clock = new FakeContext().clock,
): Promise<{ ctx: LoggingContext; session: SessionActor }> {
  const ctx = new LoggingContext();
  ctx.clock.advance(clock.now() - ctx.clock.now());
  const session = actorOn(ctx, store);
  await session.activate();
  return { ctx, session };
}

describe('SessionActor durability', () => {
  it('writes every frame to the store before it pushes it to the socket', async () => {
    const ctx = new LoggingContext();
    const store = new RecordingStore(ctx, ctx.events);
    const session = actorOn(ctx, store);
    await session.activate();
    await session.handle(identify);
    await session.handle(dispatch('1'));
    await session.handle(dispatch('2'));
    assert.deepEqual(ctx.events, [
      'save seq 1',
      'push s1 1',
      'write 2 seq 2',
      'push s1 2',
      'write 3 seq 3',
      'push s1 3',
    ]);
  });

  it('resumes on a new activation elsewhere from what the store holds, numbering on', async () => {
    const first = new FakeContext();
    const store = new InMemorySessionStore(first.clock);
    const dead = actorOn(first, store);
    await dead.handle(identify);
    for (const id of ['1', '2', '3']) await dead.handle(dispatch(id));
    // The node hosting `dead` is gone; the next message for the session activates it on its new owner.
    const { ctx, session } = await takeOver(store, first.clock);
    assert.deepEqual(ctx.events, ['push s1 op close 4000'], 'the client on the old socket is asked to reconnect');
    assert.ok(
      ctx.told.some((told) => told.kind === 'user' && JSON.stringify(told.command).includes('attachSession')),
      'the session attaches to its user again',
    );
    await session.handle(dispatch('4'));
    await session.handle(resume('s2', 2));
    assert.deepEqual(
      ctx.framesTo('s2').map((frame) => [frame.t, frame.s, frame.d['id']]),
      [
        ['MESSAGE_CREATE', 3, '2'],
        ['MESSAGE_CREATE', 4, '3'],
        ['MESSAGE_CREATE', 5, '4'],
        ['RESUMED', 6, undefined],
      ],
    );
    await session.handle(dispatch('5'));
    assert.equal(ctx.framesTo('s2').at(-1)?.s, 7);
  });

  it('keeps a detached session detached on the new owner, ending it when its first window ends', async () => {
    const first = new FakeContext();
    const store = new InMemorySessionStore(first.clock);
    const dead = actorOn(first, store);
    await dead.handle(identify);
    await dead.handle(detach('s1'));
    first.clock.advance(40_000);
    const { ctx, session } = await takeOver(store, first.clock);
    assert.deepEqual(ctx.pushed, [], 'no socket to close');
    const expiry = ctx.timers.find((timer) => JSON.stringify(timer.command).includes('expire'));
    assert.equal(expiry?.delayMs, 20_000);
    ctx.clock.advance(20_000);
    await session.handle(expiry?.command as SessionCommand);
    assert.equal(ctx.stopped, true);
    assert.equal(await store.load(ctx.key), undefined);
  });

  it('refuses a resume from a sequence the store never had', async () => {
    const first = new FakeContext();
    const store = new InMemorySessionStore(first.clock);
    const dead = actorOn(first, store);
    await dead.handle(identify);
    await dead.handle(dispatch('1'));
    const { session } = await takeOver(store, first.clock);
    await assert.rejects(session.handle(resume('s2', 3)), UnknownEntityError);
  });

  it('does not push a frame the store refused, and asks the client to reconnect and resume', async () => {
    const ctx = new LoggingContext();
    const store = new RecordingStore(ctx, ctx.events);
    const session = actorOn(ctx, store);
    await session.handle(identify);
    store.refuse = true;
    await session.handle(dispatch('1'));
    assert.deepEqual(
      ctx.framesTo('s1').filter((frame) => frame.t === 'MESSAGE_CREATE'),
      [],
    );
    assert.equal(ctx.events.at(-1), 'push s1 op close 4000');
    await assert.rejects(session.handle(resume('s2', 1)), ServiceUnavailableError);
    store.refuse = false;
    await session.handle(resume('s3', 1));
    assert.deepEqual(
      ctx.framesTo('s3').map((frame) => [frame.t, frame.s]),
      [
        ['MESSAGE_CREATE', 2],
        ['RESUMED', 4],
      ],
    );
  });

  it("keeps a web client's capabilities on a new activation: a guild joined later has READY's shape", async () => {
    const first = new FakeContext();
    const store = new InMemorySessionStore(first.clock);
    const dead = actorOn(first, store);
    const v2: SessionCommand = {
      command: { $case: 'identify', identify: { ...identifyOf(identify), capabilities: 1 << 10 } },
    };
    await dead.handle(v2);
    const { ctx, session } = await takeOver(store, first.clock);
    await session.handle(resume('s2', 1));
    const guildId = (1_000_002n << 22n).toString();
    await session.handle({ command: { $case: 'joinedGuild', joinedGuild: { guildId } } });
    const created = ctx.framesTo('s2').find((frame) => frame.t === 'GUILD_CREATE');
    assert.equal(created?.d['data_mode'], 'full');
    assert.equal((created?.d['properties'] as { name?: string } | undefined)?.name, `g${guildId}`);
  });

  it('answers a dispatch for a session the store does not know with UnknownEntityError', async () => {
    const ctx = new FakeContext();
    const session = actorOn(ctx, new InMemorySessionStore(ctx.clock));
    await session.activate();
    await assert.rejects(session.handle(dispatch('1')), UnknownEntityError);
    assert.equal(ctx.stopped, true);
  });

  it('ends an invalidated session: op 7 and close 4000 on its socket, and the store forgets it', async () => {
    const ctx = new LoggingContext();
    const store = new RecordingStore(ctx, ctx.events);
    const session = actorOn(ctx, store);
    await session.handle(identify);
    await session.handle({ command: { $case: 'invalidate', invalidate: { reason: 'mailbox full' } } });
    assert.deepEqual(ctx.events.slice(-2), ['push s1 op close 4000', 'delete']);
    assert.equal(ctx.stopped, true);
    assert.ok(ctx.told.some((told) => told.kind === 'guild' && JSON.stringify(told.command).includes('unsubscribe')));
    assert.equal(await store.load(ctx.key), undefined);
  });

  it('stops without ending when deactivated inside its window, and ends after it', async () => {
    const ctx = new FakeContext();
    const store = new InMemorySessionStore(ctx.clock);
    const session = actorOn(ctx, store);
    await session.handle(identify);
    await session.deactivate(); // handed off, or the node is stopping
    assert.ok(await store.load(ctx.key), 'the session lives on in the store');
    assert.equal(ctx.told.filter((told) => JSON.stringify(told.command).includes('detachSession')).length, 0);
    const later = new FakeContext();
    const again = actorOn(later, store);
    await again.activate();
    later.clock.advance(WINDOW_MS);
    assert.equal(again.canPassivate(), true);
    await again.deactivate();
    assert.equal(await store.load(later.key), undefined);
  });

  it("keeps a quiet attached session alive in the store through the edge's checks, with no timer of its own", async () => {
    const ctx = new LoggingContext();
    const store = new RecordingStore(ctx, ctx.events);
    const session = actorOn(ctx, store);
    await session.handle(identify);
    assert.deepEqual(ctx.timers, [], 'an attached session sets no timer');
    const check: SessionCommand = { command: { $case: 'heartbeat', heartbeat: { seq: '0', socket: socket('s1') } } };
    const pushes = ctx.pushed.length;
    // The edge checks once per heartbeat interval; a quarter window after the last extension one extends it.
    const touches = (): number => ctx.events.filter((entry) => entry === 'touch').length;
    ctx.clock.advance(WINDOW_MS / 4 - 1);
    await session.handle(check);
    assert.equal(touches(), 0, 'not due yet');
    for (let round = 0; round < 6; round += 1) {
      ctx.clock.advance(WINDOW_MS / 2);
      await session.handle(check);
    }
    assert.ok(await store.load(ctx.key), `alive ${3 * WINDOW_MS} ms after its last frame`);
    assert.equal(touches(), 6);
    assert.equal(ctx.pushed.length, pushes, 'its own socket is not asked to reconnect');
  });
});
