import assert from 'node:assert/strict';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import type { SessionCommand } from '../../../proto/gen/chorus/v1/session.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { FakeContext, identifyCommand, token } from './FakeSessionContext.js';

const WINDOW_MS = 60_000;
const EDGE = 'edge@1';
const socket = (socketId: string, nodeId = EDGE) => ({ nodeId, socketId });
const identify = identifyCommand(EDGE);
const nodeLeft = (nodeId: string): SessionCommand => ({ command: { $case: 'nodeLeft', nodeLeft: { nodeId } } });
const dispatch = (id: string): SessionCommand => ({
  command: { $case: 'dispatch', dispatch: { event: 'MESSAGE_CREATE', dataJson: `{"id":"${id}"}`, intent: 0 } },
});

async function identified(): Promise<{ ctx: FakeContext; store: InMemorySessionStore; session: SessionActor }> {
  const ctx = new FakeContext();
  const store = new InMemorySessionStore(ctx.clock);
  const session = new SessionActor(
    ctx,
    { resumeWindowMs: WINDOW_MS, resumeBufferSize: 10, tokenSecret: 'unit-secret', gatewayUrl: 'ws://gw' },
    store,
  );
  await session.activate();
  await session.handle(identify);
  return { ctx, store, session };
}

/** The last expire the session set for itself. */
function lastExpiry(ctx: FakeContext): { delayMs: number; command: SessionCommand } | undefined {
  const timer = ctx.timers.filter((candidate) => JSON.stringify(candidate.command).includes('expire')).at(-1);
  return timer && { delayMs: timer.delayMs, command: timer.command as SessionCommand };
}

describe('SessionActor when a node leaves the cluster', () => {
  it('detaches a session whose socket that node held, asks the socket to resume, and ends once the window ran out', async () => {
    const { ctx, store, session } = await identified();
    await session.handle(nodeLeft(EDGE));
    assert.deepEqual(ctx.pushed.at(-1), {
      socketId: 's1',
      frames: ['{"op":7,"d":null,"s":null,"t":null}'],
      closeCode: 4000,
    });
    assert.equal((await store.load(ctx.key))?.record.socket, undefined, 'the store knows the socket is gone');
    const expiry = lastExpiry(ctx);
    assert.ok(expiry, 'an expiry is set');
    assert.equal(expiry.delayMs, WINDOW_MS);

    ctx.clock.advance(WINDOW_MS);
    await session.handle(expiry.command);
    assert.equal(ctx.stopped, true);
    assert.ok(
      ctx.told.some((told) => told.kind === 'user' && JSON.stringify(told.command).includes('detachSession')),
      'its user hears the session ended (and says offline when it was the last)',
    );
    assert.equal(await store.load(ctx.key), undefined);
  });

  it('ignores a node that held none of its sockets and keeps pushing to its own', async () => {
    const { ctx, session } = await identified();
    const pushes = ctx.pushed.length;
    await session.handle(nodeLeft('other@2'));
    assert.equal(ctx.pushed.length, pushes);
    assert.equal(lastExpiry(ctx), undefined);
    await session.handle(dispatch('1'));
    assert.equal(ctx.framesTo('s1').at(-1)?.t, 'MESSAGE_CREATE');
  });

  it('goes on after a resume within the window: the old window’s expiry ends nothing', async () => {
    const { ctx, session } = await identified();
    await session.handle(nodeLeft(EDGE));
    const expiry = lastExpiry(ctx);
    assert.ok(expiry, 'an expiry is set');
    await session.handle({
      command: { $case: 'resume', resume: { socket: socket('s2', 'survivor@2'), token, seq: '1' } },
    });
    assert.equal(ctx.framesTo('s2').at(-1)?.t, 'RESUMED');
    ctx.clock.advance(WINDOW_MS);
    await session.handle(expiry.command);
    assert.equal(ctx.stopped, false);
    await session.handle(dispatch('1'));
    assert.equal(ctx.framesTo('s2').at(-1)?.t, 'MESSAGE_CREATE');
  });

  it('keeps an attached session stored two windows, so it outlives a window after its node dies between keep-alives', async () => {
    const { ctx, store } = await identified();
    ctx.clock.advance(2 * WINDOW_MS - 1);
    assert.notEqual(await store.load(ctx.key), undefined);
    ctx.clock.advance(1);
    assert.equal(await store.load(ctx.key), undefined);
  });
});
