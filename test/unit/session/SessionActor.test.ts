import assert from 'node:assert/strict';
import { SessionActor } from '../../../actors/session/SessionActor.js';
import type { Identify, SessionCommand, SessionReply } from '../../../proto/gen/chorus/v1/session.js';
import { ServiceUnavailableError, UnauthorizedError, UnknownEntityError } from '../../../src/domain/errors.js';
import { GatewayIntent } from '../../../src/domain/intents.js';
import { signToken } from '../../../src/domain/tokens.js';
import { InMemorySessionStore } from '../../../src/store/memory/InMemorySessionStore.js';
import { FakeContext, GUILD_A, GUILD_B, identifyCommand, SECRET, token, USER } from './FakeSessionContext.js';

const socket = (socketId: string): { nodeId: string; socketId: string } => ({ nodeId: 'node@1', socketId });
const identify = (extra: Partial<Identify> = {}): SessionCommand => identifyCommand('node@1', extra);
const dispatch = (event: string, data: unknown, intent = 0): SessionCommand => ({
  command: { $case: 'dispatch', dispatch: { event, dataJson: JSON.stringify(data), intent } },
});
const resume = (socketId: string, seq: number, withToken = token): SessionCommand => ({
  command: { $case: 'resume', resume: { socket: socket(socketId), token: withToken, seq: String(seq) } },
});
const detach = (socketId: string, invalidate = false): SessionCommand => ({
  command: { $case: 'detach', detach: { socketId, invalidate } },
});

function sessionWith(
  ctx: FakeContext,
  resumeBufferSize = 100,
  store = new InMemorySessionStore(ctx.clock),
): SessionActor {
  return new SessionActor(
    ctx,
    {
      resumeWindowMs: 60_000,
      resumeBufferSize,
      tokenSecret: SECRET,
      gatewayUrl: 'ws://gw',
    },
    store,
  );
}

async function identified(
  ctx = new FakeContext(),
  extra = {},
): Promise<{ ctx: FakeContext; session: SessionActor; reply: SessionReply }> {
  const session = sessionWith(ctx);
  const reply = await session.handle(identify(extra));
  return { ctx, session, reply };
}

describe('SessionActor', () => {
  describe('identify', () => {
    it('gives a user account READY with its guilds inline and attaches to the user', async () => {
      const { ctx, reply } = await identified();
      assert.deepEqual(reply.reply, { $case: 'identified', identified: { userId: USER } });
      const [ready, ...rest] = ctx.framesTo('s1');
      assert.equal(ready?.t, 'READY');
      assert.equal(ready?.s, 1);
      assert.deepEqual(
        (ready?.d['guilds'] as { id: string }[]).map((guild) => guild.id),
        [GUILD_A, GUILD_B],
      );
      const own = (guildId: string): unknown => ({
        roles: [],
        user: { id: USER },
        user_id: USER,
        guild_id: guildId,
        id: USER,
      });
      assert.deepEqual(ready?.d['merged_members'], [[own(GUILD_A)], [own(GUILD_B)]]);
      assert.equal(ready?.d['session_id'], ctx.key);
      assert.equal(ready?.d['resume_gateway_url'], 'ws://gw');
      assert.deepEqual(rest, []);
      assert.ok(
        ctx.asked.some((asked) => asked.kind === 'user' && JSON.stringify(asked.command).includes('attachSession')),
        'READY waits for the user to store the session',
      );
    });

    it('gives a bot unavailable stubs, its application, then one GUILD_CREATE per guild', async () => {
      const ctx = new FakeContext();
      ctx.bot = true;
      await identified(ctx);
      const frames = ctx.framesTo('s1');
      assert.deepEqual(
        frames.map((frame) => [frame.t, frame.s]),
        [
          ['READY', 1],
          ['GUILD_CREATE', 2],
          ['GUILD_CREATE', 3],
        ],
      );
      assert.deepEqual(frames[0]?.d['guilds'], [
        { id: GUILD_A, unavailable: true },
        { id: GUILD_B, unavailable: true },
      ]);
      assert.deepEqual(frames[0]?.d['application'], { id: '555', flags: 0 });
    });

    it('subscribes only to the guilds of its shard', async () => {
      const ctx = new FakeContext();
      ctx.bot = true;
      await identified(ctx, { shardId: 1, shardCount: 2 });
      const frames = ctx.framesTo('s1');
      assert.deepEqual(frames[0]?.d['shard'], [1, 2]);
      assert.deepEqual(
        frames.filter((frame) => frame.t === 'GUILD_CREATE').map((frame) => frame.d['id']),
        [GUILD_B],
      );
    });

    it('still sends READY when its user cannot store the session, and tells it the attach instead', async () => {
      const ctx = new FakeContext();
      const ask = ctx.ask.bind(ctx);
      ctx.ask = (kind, key, command) =>
        JSON.stringify(command).includes('attachSession')
          ? Promise.reject(new ServiceUnavailableError('user store down'))
          : ask(kind, key, command);
      const { reply } = await identified(ctx);
      assert.equal(reply.reply?.$case, 'identified');
      assert.equal(ctx.framesTo('s1')[0]?.t, 'READY');
      assert.ok(
        ctx.told.some((told) => told.kind === 'user' && JSON.stringify(told.command).includes('attachSession')),
      );
    });

    it('fails with UnauthorizedError for a forged token, and stops', async () => {
      const ctx = new FakeContext();
      const session = sessionWith(ctx);
      await assert.rejects(
        session.handle(identify({ token: signToken('other', { userId: USER, generation: 0, issuedAtMs: 0 }) })),
        UnauthorizedError,
      );
      assert.equal(ctx.stopped, true);
    });
  });

  describe('dispatch', () => {
    it('numbers dispatches in order after READY', async () => {
      const { ctx, session } = await identified();
      await session.handle(dispatch('MESSAGE_CREATE', { id: '1' }, GatewayIntent.GUILD_MESSAGES));
      await session.handle(dispatch('TYPING_START', { id: '2' }));
      assert.deepEqual(
        ctx
          .framesTo('s1')
          .slice(1)
          .map((frame) => [frame.t, frame.s]),
        [
          ['MESSAGE_CREATE', 2],
          ['TYPING_START', 3],
        ],
      );
    });

    it('drops an event whose intent the session did not ask for', async () => {
      const { ctx, session } = await identified(undefined, { intents: '1' });
      await session.handle(dispatch('MESSAGE_CREATE', { id: '1' }, GatewayIntent.GUILD_MESSAGES));
      assert.deepEqual(
        ctx.framesTo('s1').map((frame) => frame.t),
        ['READY'],
      );
    });
  });

  describe('resume', () => {
    it('replays what the client missed on the new socket, then RESUMED', async () => {
      const { ctx, session } = await identified();
      await session.handle(dispatch('MESSAGE_CREATE', { id: '1' }));
      await session.handle(detach('s1'));
      await session.handle(dispatch('MESSAGE_CREATE', { id: '2' }));
      await session.handle(dispatch('MESSAGE_CREATE', { id: '3' }));
      await session.handle(resume('s2', 2));
      assert.deepEqual(
        ctx.framesTo('s2').map((frame) => [frame.t, frame.s]),
        [
          ['MESSAGE_CREATE', 3],
          ['MESSAGE_CREATE', 4],
          ['RESUMED', 5],
        ],
      );
      await session.handle(dispatch('MESSAGE_CREATE', { id: '4' }));
      assert.equal(ctx.framesTo('s2').at(-1)?.s, 6);
    });

    it('closes the old socket when a resume arrives before its close was seen', async () => {
      const { ctx, session } = await identified();
      await session.handle(resume('s2', 1));
      assert.ok(ctx.pushed.some((push) => push.socketId === 's1' && push.closeCode === 4000));
      await session.handle(detach('s1')); // the old socket's late close must not detach the new one
      await session.handle(dispatch('MESSAGE_CREATE', { id: '1' }));
      assert.equal(ctx.framesTo('s2').at(-1)?.t, 'MESSAGE_CREATE');
    });

    it('refuses a sequence older than the buffer holds and ends the session', async () => {
      const ctx = new FakeContext();
      const session = sessionWith(ctx, 2);
      await session.handle(identify());
      for (let id = 1; id <= 5; id += 1) await session.handle(dispatch('MESSAGE_CREATE', { id }));
      await assert.rejects(session.handle(resume('s2', 2)), UnknownEntityError);
      assert.equal(ctx.stopped, true);
      assert.ok(ctx.told.some((told) => told.kind === 'guild' && JSON.stringify(told.command).includes('unsubscribe')));
    });

    it('refuses a token of another user without ending the session', async () => {
      const { ctx, session } = await identified();
      const other = signToken(SECRET, { userId: '999', generation: 0, issuedAtMs: 0 });
      await assert.rejects(session.handle(resume('s2', 1, other)), UnknownEntityError);
      assert.equal(ctx.stopped, false);
    });
  });

  describe('detach', () => {
    it('waits out the resume window, then ends the session', async () => {
      const { ctx, session } = await identified();
      await session.handle(detach('s1'));
      assert.equal(session.canPassivate(), false);
      const timer = ctx.timers.find((armed) => JSON.stringify(armed.command).includes('expire'));
      assert.equal(timer?.delayMs, 60_000);
      ctx.clock.advance(60_000);
      await session.handle(timer?.command as SessionCommand);
      assert.equal(ctx.stopped, true);
      assert.ok(
        ctx.told.some((told) => told.kind === 'user' && JSON.stringify(told.command).includes('detachSession')),
      );
    });

    it('ends the session at once when the client closed normally', async () => {
      const { ctx, session } = await identified();
      await session.handle(detach('s1', true));
      assert.equal(ctx.stopped, true);
      await assert.rejects(session.handle(resume('s2', 1)), UnknownEntityError);
    });

    it('never passivates while a socket is attached', async () => {
      const { session } = await identified();
      assert.equal(session.canPassivate(), false);
    });
  });

  it('refuses anything but Identify on a session that was never identified', async () => {
    const ctx = new FakeContext();
    await assert.rejects(sessionWith(ctx).handle(resume('s2', 1)), UnknownEntityError);
    assert.equal(ctx.stopped, true);
  });

  it('sends GUILD_CREATE when its user joins a guild on its shard', async () => {
    const ctx = new FakeContext();
    ctx.guildIds = [];
    const { session } = await identified(ctx);
    await session.handle({ command: { $case: 'joinedGuild', joinedGuild: { guildId: GUILD_A } } });
    assert.deepEqual(
      ctx.framesTo('s1').map((frame) => [frame.t, frame.s]),
      [
        ['READY', 1],
        ['GUILD_CREATE', 2],
      ],
    );
  });
});
