import type { UserCommand } from '../../proto/gen/chorus/v1/user.js';
import { toAppError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { Identity } from './sessionRecord.js';

function attachCommand(ctx: ActorContext, identity: Identity): UserCommand {
  return {
    command: {
      $case: 'attachSession',
      attachSession: { sessionId: ctx.key, shardId: identity.shardId, intents: identity.intentsText },
    },
  };
}

/** Tells the session's User actor it has this session (idempotent: after a take-over). */
export function attachToUser(ctx: ActorContext, identity: Identity): void {
  ctx.tell('user', identity.userId, attachCommand(ctx, identity));
}

/**
 * Resolves once the session's User actor has stored this session (Identify: READY waits for it, so a
 * DM sent after READY reaches the session even if the User actor's node dies). Refused or out of
 * reach, the attach is told instead and READY goes out all the same, as without DMs (userExtras).
 */
export async function attachedToUser(ctx: ActorContext, identity: Identity): Promise<void> {
  try {
    await ctx.ask('user', identity.userId, attachCommand(ctx, identity));
  } catch (error) {
    ctx.log.warn('session_attach_failed', { err: toAppError(error).message });
    attachToUser(ctx, identity);
  }
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
