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
  return { ...state, last_message_id: ack.messageId, mention_count: ack.mentionCount };
}

/**
 * The state after a new message in the channel, or undefined when it changes nothing: the user's own
 * message is read up to it (no mentions left); a mention newer than what was read counts one more.
 */
export function afterMessage(state: ReadStateRecord, message: ReadStateMessage): ReadStateRecord | undefined {
  if (compareSnowflakes(message.messageId, state.last_message_id) <= 0) return undefined;
  return message.own
    ? { ...state, last_message_id: message.messageId, mention_count: 0 }
    : { ...state, mention_count: state.mention_count + 1 };
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
 * One user's read states, owned by their User actor: loaded on first use (most turns never need
 * them), changed only inside the actor's turns, and written through before the change is kept.
 */
export class ReadStates {
  #byChannel: Map<string, ReadStateRecord> | undefined;

  constructor(
    private readonly userId: string,
    private readonly store: ReadStateStore,
  ) {}

  /** Every stored state, in channel id order. */
  async list(): Promise<ReadStateRecord[]> {
    return [...(await this.#states()).values()].sort((a, b) => compareSnowflakes(a.channel_id, b.channel_id));
  }

  /** Applies an ack; false when it changed nothing (see afterAck). */
  async ack(ack: ReadStateAck): Promise<boolean> {
    const states = await this.#states();
    const next = afterAck(states.get(ack.channelId) ?? unread(this.userId, ack.channelId), ack);
    if (next !== undefined) await this.#save(next);
    return next !== undefined;
  }

  /** Counts a new message of the channel (the user's own, or one mentioning them). */
  async message(message: ReadStateMessage): Promise<void> {
    const states = await this.#states();
    const next = afterMessage(states.get(message.channelId) ?? unread(this.userId, message.channelId), message);
    if (next !== undefined) await this.#save(next);
  }

  async #save(state: ReadStateRecord): Promise<void> {
    await this.store.save([state]);
    (await this.#states()).set(state.channel_id, state);
  }

  async #states(): Promise<Map<string, ReadStateRecord>> {
    if (this.#byChannel === undefined) {
      const stored = await this.store.list(this.userId);
      this.#byChannel = new Map(stored.map((state) => [state.channel_id, state]));
    }
    return this.#byChannel;
  }
}
