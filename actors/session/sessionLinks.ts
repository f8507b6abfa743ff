import type { ActorContext } from '../runtime/ActorContext.js';
import type { Identity } from './sessionRecord.js';

/** Tells the session's User actor it has this session (idempotent: Identify, and after a take-over). */
export function attachToUser(ctx: ActorContext, identity: Identity): void {
  ctx.tell('user', identity.userId, {
    command: {
      $case: 'attachSession',
      attachSession: { sessionId: ctx.key, shardId: identity.shardId, intents: identity.intentsText },
    },
  });
}

/** Tells the guilds and the user of an ending session to forget it. */
export function leaveAll(ctx: ActorContext, identity: Identity | undefined, guildIds: Iterable<string>): void {
  const sessionId = ctx.key;
  for (const guildId of guildIds) {
    ctx.tell('guild', guildId, { command: { $case: 'unsubscribe', unsubscribe: { sessionId } } });
  }
  if (!identity) return;
  ctx.tell('user', identity.userId, {
    command: {
      $case: 'detachSession',
      detachSession: { sessionId, shardId: identity.shardId, intents: identity.intentsText },
    },
  });
}
