import type { ReadStateAck, ReadStateMessage } from '../../proto/gen/chorus/v1/user.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import type { ReadStateRecord, ReadStateStore } from '../runtime/ports/readStateStore.js';

/** A channel's read state before the user acked, posted or was mentioned there. */
function unread(userId: string, channelId: string): ReadStateRecord {
  return { user_id: userId, channel_id: channelId, last_message_id: '0', mention_count: 0, last_pin_timestamp: null };
}

/**
 * The state after an ack, or undefined when the ack changes nothing: an ack of an older message than
 * the one already read is ignored unless it is a manual "mark unread".
 */
export function afterAck(state: ReadStateRecord, ack: ReadStateAck): ReadStateRecord | undefined {
  if (!ack.manual && compareSnowflakes(ack.messageId, state.last_message_id) < 0) return undefined;
  return withReadTo(state, ack.messageId, ack.mentionCount);
}

/**
 * The state after a new message in the channel, or undefined when it changes nothing: the user's own
 * message is read up to it (no mentions left); a mention newer than what was read counts one more.
 */
export function afterMessage(state: ReadStateRecord, message: ReadStateMessage): ReadStateRecord | undefined {
  if (compareSnowflakes(message.messageId, state.last_message_id) <= 0) return undefined;
  return message.own
    ? withReadTo(state, message.messageId, 0)
    : withReadTo(state, state.last_message_id, state.mention_count + 1);
}

/**
 * The state read up to `lastMessageId` with `mentionCount` mentions since, built field by field: a spread with
 * keys overridden took V8's slow clone path here (about 10 µs per message create under load, 2% of a POST's
 * CPU profile), and an author's read state changes with every message they send.
 */
function withReadTo(state: ReadStateRecord, lastMessageId: string, mentionCount: number): ReadStateRecord {
  return {
    user_id: state.user_id,
    channel_id: state.channel_id,
    last_message_id: lastMessageId,
    mention_count: mentionCount,
    last_pin_timestamp: state.last_pin_timestamp,
  };
}

/** READY's `read_state` entry of a stored state. */
export function readStateJson(state: ReadStateRecord): Record<string, unknown> {
  return {
    id: state.channel_id,
    last_message_id: state.last_message_id,
    mention_count: state.mention_count,
    last_pin_timestamp: state.last_pin_timestamp,
  };
}

/**
 * One user's read states, owned by their User actor: loaded on first use (most turns never need them)
 * and changed only inside the actor's turns. An ack is written through before it is kept. Own messages
 * and mentions come with every message create, so they are kept in memory and written together by
 * `flush` (a timer, the next ack, deactivation): a crash loses at most that last second of them, and a
 * busy channel costs its authors no write per message.
 */
export class ReadStates {
  #byChannel: Map<string, ReadStateRecord> | undefined;
  /** Channels whose state changed since the last write; made with the first (an idle user has none). */
  #unwritten: Set<string> | undefined;

  constructor(
    private readonly userId: string,
    private readonly store: ReadStateStore,
  ) {}

  /** Every state (stored or about to be), in channel id order. */
  async list(): Promise<ReadStateRecord[]> {
    return [...(await this.#states()).values()].sort((a, b) => compareSnowflakes(a.channel_id, b.channel_id));
  }

  /** Applies an ack, written with any unwritten states; false when it changed nothing (see afterAck). */
  async ack(ack: ReadStateAck): Promise<boolean> {
    const states = await this.#states();
    const next = afterAck(states.get(ack.channelId) ?? unread(this.userId, ack.channelId), ack);
    if (next === undefined) return false;
    await this.store.save([next, ...this.#pending().filter((state) => state.channel_id !== ack.channelId)]);
    states.set(next.channel_id, next);
    this.#unwritten = undefined;
    return true;
  }

  /**
   * Counts a new message of the channel (the user's own, or one mentioning them) in memory; true when
   * it is the first change since the last write (the caller schedules `flush`).
   */
  async message(message: ReadStateMessage): Promise<boolean> {
    const states = await this.#states();
    const next = afterMessage(states.get(message.channelId) ?? unread(this.userId, message.channelId), message);
    if (next === undefined) return false;
    states.set(next.channel_id, next);
    const first = this.#unwritten === undefined;
    (this.#unwritten ??= new Set()).add(next.channel_id);
    return first;
  }

  /** Writes the states changed since the last write, in one save. */
  async flush(): Promise<void> {
    const pending = this.#pending();
    if (pending.length === 0) return;
    await this.store.save(pending);
    this.#unwritten = undefined;
  }

  #pending(): ReadStateRecord[] {
    const states = this.#byChannel;
    if (states === undefined || this.#unwritten === undefined) return [];
    return [...this.#unwritten].flatMap((channelId) => states.get(channelId) ?? []);
  }

  async #states(): Promise<Map<string, ReadStateRecord>> {
    if (this.#byChannel === undefined) {
      const stored = await this.store.list(this.userId);
      this.#byChannel = new Map(stored.map((state) => [state.channel_id, state]));
    }
    return this.#byChannel;
  }
}
