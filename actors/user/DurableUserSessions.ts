import type { DispatchEvent } from '../../proto/gen/chorus/v1/common.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { UserSessionStore } from '../runtime/ports/userSessionStore.js';
import { UserSessions } from './userSessions.js';

/**
 * A user's gateway sessions, written through to the UserSessionStore before the in-memory list
 * changes, and loaded back on activation: the User actor may passivate while its user is connected,
 * and one re-activated on another node (its node died) keeps reaching the sessions it had. Entries
 * of sessions that ended unseen are dropped when a fan-out reports them gone (a `detachSession` tell
 * from the actor system).
 */
export class DurableUserSessions {
  readonly #live = new UserSessions();

  constructor(
    private readonly ctx: ActorContext,
    private readonly store: UserSessionStore,
  ) {}

  /** Fills the list from the store (activation). */
  async load(): Promise<void> {
    for (const { sessionId, shardId, intents } of await this.store.list(this.ctx.key)) {
      this.#live.attach(sessionId, shardId, intents);
    }
  }

  /** Adds or replaces a session once the store has it (Identify, resume on another node, take-over). */
  async attach(sessionId: string, shardId: number, intents: string): Promise<void> {
    await this.store.add(this.ctx.key, { sessionId, shardId, intents });
    this.#live.attach(sessionId, shardId, intents);
  }

  /**
   * Forgets a session (idempotent). One unknown here is unknown to the store as well (attach writes
   * the store first, load reads it all, detach leaves the list last), so the reports of a gone session
   * after the first cost nothing; a failed removal keeps the session listed, and the next report retries.
   */
  async detach(sessionId: string): Promise<void> {
    if (!this.#live.has(sessionId)) return;
    await this.store.remove(this.ctx.key, [sessionId]);
    this.#live.detach(sessionId);
  }

  /** True when no session is attached. */
  isEmpty(): boolean {
    return this.#live.all().length === 0;
  }

  /** True when the session is attached. */
  has(sessionId: string): boolean {
    return this.#live.has(sessionId);
  }

  /** Sends a user-level event to the sessions that get it (shard 0, intent-filtered). */
  dispatch(event: DispatchEvent): void {
    const recipients = this.#live.recipientsOf(event);
    if (recipients.length > 0) this.ctx.fanOut(recipients, event);
  }

  /** Tells every session (all shards: each picks its own) that the user joined or left a guild. */
  membership(guildId: string, joined: boolean): void {
    for (const sessionId of this.#live.all()) {
      this.ctx.tell(ActorKind.Session, sessionId, {
        command: joined
          ? { $case: 'joinedGuild', joinedGuild: { guildId } }
          : { $case: 'leftGuild', leftGuild: { guildId } },
      });
    }
  }
}
