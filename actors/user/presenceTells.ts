import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { AggregatePresence, SessionPresenceState } from './userPresence.js';

/** relationships value of a friend. */
const FRIEND = 1;
/** Sessions SESSIONS_REPLACE lists at most (Discord: 15). */
const MAX_LISTED_SESSIONS = 15;

/** Tells one guild the user's public presence (never awaited: a Guild only tells back). */
export function tellGuildPresence(ctx: ActorContext, guildId: string, presence: AggregatePresence): void {
  ctx.tell(ActorKind.Guild, guildId, {
    command: {
      $case: 'memberPresence',
      memberPresence: {
        userId: ctx.key,
        status: presence.status,
        activitiesJson: JSON.stringify(presence.activities),
        clientStatusJson: JSON.stringify(presence.client_status),
      },
    },
  });
}

/**
 * A changed public presence: each guild of the user is told (it fans PRESENCE_UPDATE out with its
 * guild_id), and each friend's sessions get the guild-less PRESENCE_UPDATE through the friend's User actor.
 */
export function announcePresence(
  ctx: ActorContext,
  guildIds: Iterable<string>,
  relationships: Readonly<Record<string, number>>,
  presence: AggregatePresence,
): void {
  for (const guildId of guildIds) tellGuildPresence(ctx, guildId, presence);
  const dataJson = JSON.stringify({
    user: { id: ctx.key },
    status: presence.status,
    activities: presence.activities,
    client_status: presence.client_status,
  });
  for (const [userId, type] of Object.entries(relationships)) {
    if (type !== FRIEND) continue;
    ctx.tell(ActorKind.User, userId, {
      command: { $case: 'dispatch', dispatch: { event: { event: 'PRESENCE_UPDATE', dataJson, intent: 0 } } },
    });
  }
}

/**
 * SESSIONS_REPLACE `d`: the user's sessions as their own clients see them, and with several sessions
 * the synthetic `all` session holding what others see (Discord's own sessions never get PRESENCE_UPDATE).
 */
export function sessionsReplaceJson(
  sessions: ReadonlyMap<string, SessionPresenceState>,
  aggregate: AggregatePresence,
): string {
  const listed: Record<string, unknown>[] = [];
  if (sessions.size > 1) {
    listed.push({
      session_id: 'all',
      client_info: { client: 'unknown', os: 'unknown', version: 0 },
      status: aggregate.status === 'offline' ? 'invisible' : aggregate.status,
      activities: aggregate.activities,
      hidden_activities: [],
    });
  }
  for (const [sessionId, session] of sessions) {
    if (listed.length >= MAX_LISTED_SESSIONS) break;
    listed.push({
      session_id: sessionId,
      client_info: { client: session.platform, os: 'unknown', version: 0 },
      status: session.status,
      activities: session.activities,
      hidden_activities: [],
    });
  }
  return JSON.stringify(listed);
}
