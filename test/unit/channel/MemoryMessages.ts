import type { MessageRecord, ReactionRecord } from '../../../actors/runtime/ports/records.js';
import type { MessagePage, MessageStore } from '../../../actors/runtime/ports/stores.js';
import { compareSnowflakes } from '../../../src/domain/snowflake.js';

/** A promise that stays pending until the returned release runs; release calls `cleared` first. */
function gate(cleared: () => void): [Promise<void>, () => void] {
  let open!: () => void;
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  return [
    held,
    () => {
      cleared();
      open();
    },
  ];
}

/**
 * A message store in memory that counts its page reads and can hold them: `holdLists()` makes each list()
 * read the messages when called (as a database would) but answer only once released, so a test can write
 * while a fill's read is pending; `holdUpdates()` makes update() apply only once released, so a test can
 * read while a write is pending.
 */
export class MemoryMessages implements MessageStore {
  readonly #messages = new Map<string, MessageRecord>();
  #reactions: ReactionRecord[] = [];
  #held: Promise<void> | undefined;
  #heldUpdates: Promise<void> | undefined;
  /** list() calls so far: each fill of the window is one. */
  lists = 0;
  /** listPageReactions() calls so far. */
  pageReactionReads = 0;
  /** When set, the next insert stores the message and then fails with this error (a write that timed out). */
  failNextInsert: Error | undefined;

  /** Holds every list() answer until the returned function is called. */
  holdLists(): () => void {
    const [held, release] = gate(() => {
      this.#held = undefined;
    });
    this.#held = held;
    return release;
  }

  /** Holds every update() (not applied yet) until the returned function is called. */
  holdUpdates(): () => void {
    const [held, release] = gate(() => {
      this.#heldUpdates = undefined;
    });
    this.#heldUpdates = held;
    return release;
  }

  insert(message: MessageRecord): Promise<void> {
    this.#messages.set(message.id, structuredClone(message));
    const failure = this.failNextInsert;
    this.failNextInsert = undefined;
    return failure === undefined ? Promise.resolve() : Promise.reject(failure);
  }

  async update(message: MessageRecord): Promise<void> {
    const copy = structuredClone(message);
    if (this.#heldUpdates) await this.#heldUpdates;
    if (this.#messages.has(copy.id)) this.#messages.set(copy.id, copy);
  }

  get(channelId: string, messageId: string): Promise<MessageRecord | undefined> {
    const found = this.#messages.get(messageId);
    return Promise.resolve(found?.channel_id === channelId ? structuredClone(found) : undefined);
  }

  delete(channelId: string, messageIds: readonly string[]): Promise<void> {
    for (const id of messageIds) {
      if (this.#messages.get(id)?.channel_id === channelId) this.#messages.delete(id);
    }
    this.#reactions = this.#reactions.filter((r) => r.channel_id !== channelId || !messageIds.includes(r.message_id));
    return Promise.resolve();
  }

  async list(channelId: string, page: MessagePage): Promise<MessageRecord[]> {
    this.lists += 1;
    const oldestFirst = [...this.#messages.values()]
      .filter((m) => m.channel_id === channelId)
      .sort((a, b) => compareSnowflakes(a.id, b.id));
    const { before, after } = page;
    let records: MessageRecord[];
    if (after !== undefined) {
      records = oldestFirst
        .filter((m) => compareSnowflakes(m.id, after) > 0)
        .slice(0, page.limit)
        .reverse();
    } else {
      records = oldestFirst
        .filter((m) => before === undefined || compareSnowflakes(m.id, before) < 0)
        .reverse()
        .slice(0, page.limit);
    }
    const answer = records.map((m) => structuredClone(m));
    if (this.#held) await this.#held;
    return answer;
  }

  listPinned(channelId: string): Promise<MessageRecord[]> {
    return this.list(channelId, { limit: 50 }).then((page) => page.filter((m) => m.pinned));
  }

  addReaction(reaction: ReactionRecord): Promise<void> {
    this.#reactions.push(reaction);
    return Promise.resolve();
  }

  removeReactions(channelId: string, messageId: string, emoji?: string, userId?: string): Promise<void> {
    this.#reactions = this.#reactions.filter(
      (r) =>
        r.channel_id !== channelId ||
        r.message_id !== messageId ||
        (emoji !== undefined && r.emoji !== emoji) ||
        (userId !== undefined && r.user_id !== userId),
    );
    return Promise.resolve();
  }

  listReactions(channelId: string, messageId: string): Promise<ReactionRecord[]> {
    return Promise.resolve(this.#reactions.filter((r) => r.channel_id === channelId && r.message_id === messageId));
  }
}

/** The same store reading a page's reactions in one call, as SQLite and Cassandra do. */
export class MemoryMessagesWithPageReactions extends MemoryMessages {
  listPageReactions(channelId: string, messageIds: readonly string[]): Promise<ReactionRecord[][]> {
    this.pageReactionReads += 1;
    return Promise.all(messageIds.map((id) => this.listReactions(channelId, id)));
  }
}
