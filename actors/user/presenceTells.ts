import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { SessionPresence } from '../../proto/gen/chorus/v1/user.js';
import { sessionPresenceOf } from './sessionPresence.js';
import { UserPresences, type AggregatePresence, type SessionPresenceState } from './userPresence.js';

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

/** What the presence keeper reads of its User actor. */
export interface PresenceOwner {
  readonly ctx: ActorContext;
  readonly guildIds: ReadonlySet<string>;
  /** The account's relationships (friends get PRESENCE_UPDATE); undefined before the record is loaded. */
  relationships(): Readonly<Record<string, number>> | undefined;
  /** True for a user account (SESSIONS_REPLACE is theirs), false for a bot or an unknown record. */
  isUserAccount(): boolean;
  hasSession(sessionId: string): boolean;
  noSessionLeft(): boolean;
  /** Sends a user-level event to the user's sessions. */
  dispatch(event: DispatchEvent): void;
}

/**
 * A User actor's presence work: its sessions' presences (not stored: sessions re-announce theirs) and
 * what a change tells the guilds, the friends and the user's own sessions.
 */
export class PresenceKeeper {
  readonly #presences = new UserPresences();

  constructor(private readonly owner: PresenceOwner) {}

  /** A session set its presence (ignored when it does not fit, or for a session the user does not have). */
  sessionSet(command: SessionPresence): void {
    const presence = sessionPresenceOf(command);
    if (!presence || !this.owner.hasSession(command.sessionId)) return;
    if (command.restored && this.#presences.sessions.has(command.sessionId)) return;
    const before = JSON.stringify(this.#presences.sessions.get(command.sessionId));
    const changed = this.#presences.set(command.sessionId, presence);
    this.#after(changed, before !== JSON.stringify(presence));
  }

  /**
   * A session ended (after its detach): the last one gone is offline even if this activation never heard a
   * presence. With sessions left whose presence this activation never heard (it was re-activated after its
   * node died, or passivated), what others see stays as last told until those sessions tell theirs.
   */
  sessionEnded(sessionId: string): void {
    if (this.owner.noSessionLeft()) {
      this.#after(this.#presences.offline());
      return;
    }
    const heard = [...this.#presences.sessions.keys()];
    if (heard.every((id) => id === sessionId)) {
      this.#presences.forget(sessionId);
      return;
    }
    this.#after(this.#presences.remove(sessionId));
  }

  /** What others see now. */
  get current(): AggregatePresence {
    return this.#presences.current;
  }

  /** A guild joined hears the current presence, offline too (it may keep one from before the user left). */
  joinedGuild(guildId: string): void {
    tellGuildPresence(this.owner.ctx, guildId, this.#presences.current);
  }

  /** Tells what changed: the public presence to guilds and friends; the sessions' own list to the user's sessions. */
  #after(presence: AggregatePresence | undefined, sessionsChanged = true): void {
    if (presence !== undefined) {
      announcePresence(this.owner.ctx, this.owner.guildIds, this.owner.relationships() ?? {}, presence);
    }
    if (sessionsChanged && this.owner.isUserAccount() && this.#presences.sessions.size > 0) {
      const dataJson = sessionsReplaceJson(this.#presences.sessions, this.#presences.current);
      this.owner.dispatch({ event: 'SESSIONS_REPLACE', dataJson, intent: 0 });
    }
  }
}
